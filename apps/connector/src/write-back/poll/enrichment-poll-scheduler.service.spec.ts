import type { Queue } from 'bullmq';
import { describe, expect, it } from 'vitest';
import type { ReplayRegistry } from '../../platform/failures/replay-registry.service.js';
import type { EnrichmentPollPayload } from '../../platform/queues/job-payloads.js';
import type { EnrichmentOutbox } from '../store/enrichment-outbox.repository.js';
import type { EnrichmentPollRun, PollRunCounts } from '../store/enrichment-poll-run.entity.js';
import type { EnrichmentPollRuns } from '../store/enrichment-poll-runs.repository.js';
import { EnrichmentPollScheduler } from './enrichment-poll-scheduler.service.js';

/** The status `GET /admin/enrichment/poll/{id}` gives a finished poll with these counts and error. */
async function statusOf(counts: PollRunCounts, error: string | null = null) {
  const at = new Date('2026-11-28T10:00:00Z');
  const run: EnrichmentPollRun = {
    id: 'poll-1',
    trigger: 'admin',
    requestedAt: at,
    startedAt: at,
    finishedAt: at,
    counts,
    error,
  };
  const scheduler = new EnrichmentPollScheduler(
    { find: async () => run } as unknown as EnrichmentPollRuns,
    { pollProgress: async () => ({ pending: 0, done: 0 }) } as unknown as EnrichmentOutbox,
    {} as ReplayRegistry,
    {} as Queue<EnrichmentPollPayload>,
  );
  return scheduler.status('poll-1');
}

describe('a poll whose shops waited on their open catalog breaker', () => {
  const cause = 'catalog unavailable (breaker open)';

  it('is paused, with the cause, when it polled no shop', async () => {
    expect(await statusOf({ shops: {}, held: { 'a.myshopify.com': cause } })).toMatchObject({
      status: 'paused',
      error: null,
      counts: { held: { 'a.myshopify.com': cause } },
    });
  });

  it('is finished when it polled the other shops; failed only with an error', async () => {
    const polled = { found: 0, unmapped: 0, changed: 0, products: 0, rechecked: 0, agedOut: 0, watched: 0 };
    expect(
      (
        await statusOf({
          shops: { 'b.myshopify.com': { ...polled, calls: 1, lagSeconds: null } },
          held: { 'a.myshopify.com': cause },
        })
      )?.status,
    ).toBe('finished');
    expect((await statusOf({}, 'catalog down'))?.status).toBe('failed');
  });
});
