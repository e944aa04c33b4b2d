import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '#lib/clock';
import { uniqueId } from '#lib/testing';
import { mediumDatabase } from '../../../test/support/medium-database.js';
import { Observations } from '../reporting/observations.service.js';
import { FAILURE_HISTORY_KEPT, Failure } from './failure.entity.js';
import { FailuresRepository } from './failures.repository.js';
import { type FailureInput, FailuresService } from './failures.service.js';
import { ReplayRegistry } from './replay-registry.service.js';

// The failures inbox on real PostgreSQL (the connector's migrations, a schema of this file's
// own): one open failure per subject and cause, with its count and history; a later success of
// the subject resolves every open failure of it, saying when and by what.
const database = mediumDatabase('failures', [Failure]);
const clock = new ManualClock(Date.UTC(2026, 10, 28, 9));
let failures: FailuresService;
const resolvedEvents: Array<{ shop: string; jobKind: string; count: number }> = [];

beforeAll(async () => {
  const dataSource = await database.open();
  const observations = new Observations();
  observations.subscribe({ failuresResolved: (event) => void resolvedEvents.push(event) });
  failures = new FailuresService(
    new FailuresRepository(dataSource.getRepository(Failure)),
    new ReplayRegistry(),
    clock,
    observations,
  );
});
afterAll(() => database.close());

/** A failure of `shop`'s product `subjectKey`'s sync with `code`, from job `jobId`. */
const failure = (shop: string, subjectKey: string, code: string, jobId: string): FailureInput => ({
  shop,
  jobKind: 'sync-product',
  subjectKey,
  payload: { shop, productId: subjectKey, reason: 'webhook' },
  error: { code, message: `${code} from job ${jobId}`, retryable: true },
  attempts: 3,
  jobId,
});

describe('FailuresService on PostgreSQL', () => {
  it('keeps one open failure per subject and cause: a repeat adds to its count, last seen and history', async () => {
    const shop = `${uniqueId('cause')}.myshopify.com`;
    const first = await failures.record(failure(shop, '101', 'internal_error', '1'));
    await clock.advance(60_000);
    const again = await failures.record(failure(shop, '101', 'internal_error', '2'));
    expect(again).toBe(first);
    // Another cause of the same subject is a failure of its own; another subject too.
    const other = await failures.record(failure(shop, '101', 'create_outcome_unknown', '3'));
    const elsewhere = await failures.record(failure(shop, '102', 'internal_error', '4'));
    expect(new Set([first, other, elsewhere]).size).toBe(3);

    const row = await failures.get(first);
    expect(row).toMatchObject({
      state: 'open',
      errorCode: 'internal_error',
      errorMessage: 'internal_error from job 2',
      occurrences: 2,
      attempts: 6,
      firstFailedAt: new Date(Date.UTC(2026, 10, 28, 9)),
      resolvedBy: null,
    });
    expect(row?.lastFailedAt).toEqual(new Date(Date.UTC(2026, 10, 28, 9, 1)));
    expect(row?.history).toEqual([
      { at: '2026-11-28T09:00:00.000Z', attempts: 3, message: 'internal_error from job 1', jobId: '1' },
      { at: '2026-11-28T09:01:00.000Z', attempts: 3, message: 'internal_error from job 2', jobId: '2' },
    ]);
    expect((await failures.search({ shop, state: 'open' }, { limit: 10, offset: 0 })).total).toBe(3);
  });

  it('keeps the latest occurrences in the history, and counts them all', async () => {
    const shop = `${uniqueId('history')}.myshopify.com`;
    let id = '';
    for (let n = 1; n <= FAILURE_HISTORY_KEPT + 5; n++) {
      id = await failures.record(failure(shop, '201', 'rate_limited', String(n)));
    }
    const row = await failures.get(id);
    expect(row?.occurrences).toBe(FAILURE_HISTORY_KEPT + 5);
    expect(row?.history).toHaveLength(FAILURE_HISTORY_KEPT);
    expect(row?.history[0]?.jobId).toBe('6');
    expect(row?.history.at(-1)?.jobId).toBe(String(FAILURE_HISTORY_KEPT + 5));
  });

  it("resolves every open failure of a subject on its next success, with when and by what, and no other subject's", async () => {
    const shop = `${uniqueId('resolve')}.myshopify.com`;
    const a = await failures.record(failure(shop, '301', 'internal_error', '1'));
    const b = await failures.record(failure(shop, '301', 'circuit_open', '2'));
    const c = await failures.record(failure(shop, '302', 'internal_error', '3'));
    await clock.advance(5_000);
    const resolved = await failures.resolveSucceeded(shop, 'sync-product', ['301'], 'sync-product job 9');
    expect(resolved.sort()).toEqual([a, b].sort());
    expect(resolvedEvents).toContainEqual({ shop, jobKind: 'sync-product', count: 2 });
    for (const id of [a, b]) {
      expect(await failures.get(id)).toMatchObject({
        state: 'resolved',
        resolvedAt: new Date(clock.now()),
        resolvedBy: 'sync-product job 9',
      });
    }
    expect((await failures.get(c))?.state).toBe('open');
    // Another kind's success does not resolve the sync's failures.
    expect(
      await failures.resolveSucceeded(shop, 'enrichment-push', ['302'], 'enrichment-push job 1'),
    ).toEqual([]);
    // The same subject failing again later opens a new failure.
    const later = await failures.record(failure(shop, '301', 'internal_error', '10'));
    expect(later).not.toBe(a);
    expect((await failures.get(later))?.occurrences).toBe(1);
  });
});
