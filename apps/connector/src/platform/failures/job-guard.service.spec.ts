import { DelayedError, type Job } from 'bullmq';
import { describe, expect, it } from 'vitest';
import { ClientErrorCode } from '#lib/catalog-client';
import type { CatalogSettings } from '../config/settings.js';
import type { FailureInput, FailuresService } from './failures.service.js';
import { PermanentJobError } from './job-error.js';
import { JobGuard } from './job-guard.service.js';

/** A guard whose failures inbox keeps what it is told: recorded failures and resolved subjects. */
function guarded() {
  const recorded: FailureInput[] = [];
  const resolved: Array<{ shop: string; jobKind: string; keys: readonly string[]; by: string }> = [];
  const failures = {
    record: async (input: FailureInput) => String(recorded.push(input)),
    resolveSucceeded: async (shop: string, jobKind: string, keys: readonly string[], by: string) => {
      resolved.push({ shop, jobKind, keys, by });
      return [];
    },
  };
  const guard = new JobGuard(
    failures as unknown as FailuresService,
    { pauseRecheckMs: 1_000 } as CatalogSettings,
  );
  return { guard, recorded, resolved };
}

const job = (name: string, id: string, attempts = 1) =>
  ({ id, name, attemptsMade: 0, opts: { attempts }, data: {} }) as unknown as Job;

describe('JobGuard', () => {
  it("resolves the subject's open failures when its work succeeds, naming the job that did it", async () => {
    const { guard, resolved, recorded } = guarded();
    await expect(
      guard.run(
        job('sync-product', '17'),
        'token',
        { shop: 'a.myshopify.com', key: '42' },
        async () => 'synced',
      ),
    ).resolves.toBe('synced');
    expect(resolved).toEqual([
      { shop: 'a.myshopify.com', jobKind: 'sync-product', keys: ['42'], by: 'sync-product job 17' },
    ]);
    expect(recorded).toEqual([]);
  });

  it('resolves nothing when the work fails or only waits', async () => {
    const { guard, resolved, recorded } = guarded();
    const subject = { shop: 'a.myshopify.com', key: '42' };
    await expect(
      guard.run(job('sync-product', '18'), 'token', subject, async () => {
        throw new PermanentJobError('shopify_unauthorized', 'token refused');
      }),
    ).rejects.toThrow(/shopify_unauthorized/);
    await expect(
      guard.run(job('sync-product', '19'), 'token', subject, async () => {
        throw new DelayedError();
      }),
    ).rejects.toBeInstanceOf(DelayedError);
    expect(resolved).toEqual([]);
    expect(recorded).toMatchObject([
      { subjectKey: '42', jobId: '18', error: { code: 'shopify_unauthorized' } },
    ]);
  });

  it('resolves the subjects a run says it did its work for, on success and beside a failure', async () => {
    const { guard, resolved } = guarded();
    const doneFor = (outcome: { result: string[] } | { error: unknown }) =>
      ('result' in outcome ? outcome.result : ['b.myshopify.com']).map((shop) => ({ shop, key: 'poll' }));
    await guard.run(
      job('enrichment-poll', 'poll-1'),
      'token',
      { shop: '*', key: 'poll-1', doneFor },
      async () => ['a.myshopify.com', 'b.myshopify.com'],
    );
    await guard
      .run(job('enrichment-poll', 'poll-2'), 'token', { shop: '*', key: 'poll-2', doneFor }, async () => {
        throw new PermanentJobError('internal_error', 'a.myshopify.com: the catalog answered 500');
      })
      .catch(() => undefined);
    expect(resolved).toEqual([
      {
        shop: 'a.myshopify.com',
        jobKind: 'enrichment-poll',
        keys: ['poll'],
        by: 'enrichment-poll job poll-1',
      },
      {
        shop: 'b.myshopify.com',
        jobKind: 'enrichment-poll',
        keys: ['poll'],
        by: 'enrichment-poll job poll-1',
      },
      {
        shop: 'b.myshopify.com',
        jobKind: 'enrichment-poll',
        keys: ['poll'],
        by: 'enrichment-poll job poll-2',
      },
    ]);
  });

  it('still succeeds when resolving fails (the failure stays open for the next success)', async () => {
    const { guard } = guarded();
    (guard as unknown as { failures: { resolveSucceeded: () => Promise<never> } }).failures.resolveSucceeded =
      async () => {
        throw new Error('database gone');
      };
    await expect(
      guard.run(job('sync-media', '3'), 'token', { shop: 'a.myshopify.com', key: '42' }, async () => 'done'),
    ).resolves.toBe('done');
  });

  it('puts a job off, recording nothing, when the process stops under it (its catalog client closed)', async () => {
    const { guard, recorded, resolved } = guarded();
    const delays: number[] = [];
    const stopping = {
      ...job('enrichment-poll', '31'),
      moveToDelayed: async (at: number) => {
        delays.push(at - Date.now());
      },
    } as unknown as Job;
    const closed = Object.assign(
      new Error('Catalog POST /v1/products/search not sent: the client was closed'),
      {
        code: ClientErrorCode.CLIENT_CLOSED,
        retryable: false,
      },
    );
    await expect(
      guard.run(stopping, 'token', { shop: '*', key: 'poll' }, async () => {
        throw closed;
      }),
    ).rejects.toBeInstanceOf(DelayedError);
    expect(delays).toHaveLength(1);
    expect(delays[0]).toBeGreaterThan(900);
    expect(recorded).toEqual([]);
    expect(resolved).toEqual([]);
  });
});
