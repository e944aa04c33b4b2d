import type { DataSource } from 'typeorm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '#lib/clock';
import { mediumDatabase } from '../../../test/support/medium-database.js';
import { EnrichmentPollRun, type PollRunCounts } from './enrichment-poll-run.entity.js';
import { EnrichmentPollRuns } from './enrichment-poll-runs.repository.js';

// Poll runs against real PostgreSQL (the connector's migrations, a schema of this file's own): a
// poll that held a shop while its catalog breaker was open is listed under that shop, and one
// that held every shop polled none: the overview's poll lag does not count it as finished work.
const database = mediumDatabase('pollruns', [EnrichmentPollRun]);
const T0 = Date.UTC(2026, 10, 28, 10);
const clock = new ManualClock(T0);
let dataSource: DataSource;
let runs: EnrichmentPollRuns;

beforeAll(async () => {
  dataSource = await database.open();
  runs = new EnrichmentPollRuns(dataSource.getRepository(EnrichmentPollRun), clock);
});

afterAll(() => database.close());

const polled = {
  found: 1,
  unmapped: 0,
  changed: 0,
  products: 0,
  rechecked: 0,
  agedOut: 0,
  watched: 0,
  calls: 1,
};
const cause = 'catalog unavailable (breaker open)';

/** A poll run a minute after the last, finished with `counts`; its finish time. */
async function pollWith(id: string, counts: PollRunCounts): Promise<Date> {
  await clock.advance(60_000);
  await runs.started(id, 'schedule');
  await runs.finished(id, counts);
  return new Date(clock.now());
}

describe('poll runs that held a shop on its open catalog breaker', () => {
  it('list under the held shop, and count for the poll lag only when they polled a shop', async () => {
    const worked = await pollWith('poll-1', { shops: { 'a.myshopify.com': { ...polled, lagSeconds: 5 } } });
    await pollWith('poll-2', { shops: {}, held: { 'a.myshopify.com': cause } });
    const partly = await pollWith('poll-3', {
      shops: { 'b.myshopify.com': { ...polled, lagSeconds: 5 } },
      held: { 'a.myshopify.com': cause },
    });
    await pollWith('poll-4', { shops: {}, held: { 'a.myshopify.com': cause } });

    const since = new Date(T0);
    expect((await runs.latest({ shop: 'a.myshopify.com', since }, 10)).map((r) => r.id)).toEqual([
      'poll-4',
      'poll-3',
      'poll-2',
      'poll-1',
    ]);
    expect((await runs.latest({ shop: 'b.myshopify.com', since }, 10)).map((r) => r.id)).toEqual(['poll-3']);
    expect(await runs.finishedSince(since)).toEqual([worked, partly]);
    // The held shop's last poll is still the one that polled it.
    expect(await runs.lastPolled(['a.myshopify.com'])).toEqual(new Map([['a.myshopify.com', worked]]));
  });
});

describe('the last early poll', () => {
  it('is the early poll that finished last, whatever polls ran after it; null before any', async () => {
    const fresh = mediumDatabase('pollearly', [EnrichmentPollRun]);
    const source = await fresh.open();
    try {
      const own = new EnrichmentPollRuns(source.getRepository(EnrichmentPollRun), clock);
      expect(await own.lastEarly()).toBeNull();
      await clock.advance(1_000);
      await own.started('early-1', 'early');
      const started = new Date(clock.now());
      await clock.advance(3_000);
      await own.finished('early-1', { shops: {} });
      const finished = new Date(clock.now());
      // A scheduled poll after it, and an early one still running, do not count.
      await own.started('tick-1', 'schedule');
      await clock.advance(500);
      await own.finished('tick-1', { shops: {} });
      await own.started('early-2', 'early');
      expect(await own.lastEarly()).toEqual({ startedAt: started, finishedAt: finished });
    } finally {
      await fresh.close();
    }
  });
});
