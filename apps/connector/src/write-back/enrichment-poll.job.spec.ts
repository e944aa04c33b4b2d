import type { Job } from 'bullmq';
import { describe, expect, it } from 'vitest';
import { ManualClock } from '#lib/clock';
import type { CatalogSettings, EnrichmentSettings } from '../platform/config/settings.js';
import type { FailureInput, FailuresService } from '../platform/failures/failures.service.js';
import { PermanentJobError } from '../platform/failures/job-error.js';
import { JobGuard } from '../platform/failures/job-guard.service.js';
import type { EnrichmentPollPayload } from '../platform/queues/job-payloads.js';
import type { ShopTurns } from '../shops/shop-turns.service.js';
import { EnrichmentPollJob } from './enrichment-poll.job.js';
import type { EarlyPolls } from './poll/early-polls.service.js';
import type { EnrichmentPoller } from './poll/enrichment-poller.service.js';
import { ShopPollFailed } from './poll/shop-poll-failed.js';
import type { EnrichmentPollRuns } from './store/enrichment-poll-runs.repository.js';

/**
 * The poll job with a poller whose shop fails while `failing()` says so (then polls fine), and a
 * failures inbox that keeps what it is given and the subjects it is told to resolve.
 */
function pollJobFailing(cause: () => Error, failing: () => boolean = () => true) {
  const clock = new ManualClock(0);
  const tookMs: number[] = [];
  const recorded: FailureInput[] = [];
  const resolved: string[] = [];
  const failures = {
    record: async (input: FailureInput) => String(recorded.push(input)),
    resolveSucceeded: async (shop: string, jobKind: string, keys: readonly string[], by: string) => {
      resolved.push(`${shop} ${jobKind} ${keys.join(',')} by ${by}`);
      return [];
    },
  };
  const guard = new JobGuard(
    failures as unknown as FailuresService,
    { pauseRecheckMs: 1_000 } as CatalogSettings,
  );
  const poller = {
    poll: async () => {
      // The poll takes 7 s on the clock: what the early polls' duty bound is given.
      await clock.advance(7_000);
      if (failing()) throw new ShopPollFailed('failing.myshopify.com', cause());
      return { shops: { 'failing.myshopify.com': {} } };
    },
  } as unknown as EnrichmentPoller;
  const runs = {
    started: async () => undefined,
    finished: async () => undefined,
  } as unknown as EnrichmentPollRuns;
  const early = {
    after: async (_counts: unknown, took: number) => {
      tookMs.push(took);
      return null;
    },
  } as unknown as EarlyPolls;
  // Each scheduled tick: the shop's turn came.
  const turns = { due: () => [{ domain: 'failing.myshopify.com' }] } as unknown as ShopTurns;
  const settings = { pollIntervalMs: 60_000 } as EnrichmentSettings;
  const job = new EnrichmentPollJob(guard, poller, runs, early, turns, settings, clock);
  const run = (id: string) =>
    job
      .process({
        id,
        name: 'enrichment-poll',
        attemptsMade: 0,
        opts: { attempts: 1 },
        data: {},
      } as Job<EnrichmentPollPayload>)
      .catch(() => undefined);
  return { recorded, resolved, run, tookMs };
}

describe('a shop whose poll keeps failing', () => {
  it('opens one failure per shop and cause, not one per poll', async () => {
    const { recorded, run } = pollJobFailing(
      () => new PermanentJobError('catalog_key_refused', 'the key is refused'),
    );
    for (const id of ['poll-1', 'poll-2', 'poll-3']) await run(id);
    expect(recorded).toHaveLength(3);
    const subjects = new Set(recorded.map((r) => `${r.shop} ${r.subjectKey}`));
    expect([...subjects]).toEqual(['failing.myshopify.com poll']);
    expect(recorded[0]?.error).toMatchObject({ code: 'catalog_key_refused', retryable: false });
    expect(recorded[0]?.error.message).toContain('failing.myshopify.com');
  });

  it("is resolved by the shop's next poll that succeeds", async () => {
    let down = true;
    const { recorded, resolved, run, tookMs } = pollJobFailing(
      () => new PermanentJobError('internal_error', 'the catalog answered 500'),
      () => down,
    );
    await run('poll-1');
    expect(recorded.map((r) => `${r.shop} ${r.subjectKey} ${r.error.code}`)).toEqual([
      'failing.myshopify.com poll internal_error',
    ]);
    expect(resolved).toEqual([]);
    down = false;
    await run('poll-2');
    expect(resolved).toEqual([
      '* enrichment-poll poll by enrichment-poll job poll-2',
      'failing.myshopify.com enrichment-poll poll by enrichment-poll job poll-2',
    ]);
    // The poll that succeeded told the early polls how long it took (the failed one asked none).
    expect(tookMs).toEqual([7_000]);
  });
});
