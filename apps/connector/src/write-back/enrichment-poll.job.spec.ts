import type { Job } from 'bullmq';
import { describe, expect, it } from 'vitest';
import type { CatalogSettings } from '../platform/config/settings.js';
import type { FailureInput, FailuresService } from '../platform/failures/failures.service.js';
import { PermanentJobError } from '../platform/failures/job-error.js';
import { JobGuard } from '../platform/failures/job-guard.service.js';
import type { EnrichmentPollPayload } from '../platform/queues/job-payloads.js';
import { EnrichmentPollJob } from './enrichment-poll.job.js';
import type { EnrichmentPoller } from './poll/enrichment-poller.service.js';
import { ShopPollFailed } from './poll/shop-poll-failed.js';
import type { EnrichmentPollRuns } from './store/enrichment-poll-runs.repository.js';

/** The poll job with a poller whose shop keeps failing, and a failures inbox that keeps what it is given. */
function pollJobFailing(cause: () => Error) {
  const recorded: FailureInput[] = [];
  const failures = {
    record: async (input: FailureInput) => String(recorded.push(input)),
  };
  const guard = new JobGuard(
    failures as unknown as FailuresService,
    { pauseRecheckMs: 1_000 } as CatalogSettings,
  );
  const poller = {
    poll: async () => {
      throw new ShopPollFailed('failing.myshopify.com', cause());
    },
  } as unknown as EnrichmentPoller;
  const runs = {
    started: async () => undefined,
    finished: async () => undefined,
  } as unknown as EnrichmentPollRuns;
  const job = new EnrichmentPollJob(guard, poller, runs);
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
  return { recorded, run };
}

describe('a shop whose poll keeps failing', () => {
  it('opens one failure per shop and cause, not one per poll', async () => {
    const { recorded, run } = pollJobFailing(
      () => new PermanentJobError('catalog_key_refused', 'the key is refused'),
    );
    for (const id of ['poll-1', 'poll-2', 'poll-3']) await run(id);
    expect(recorded).toHaveLength(3);
    const subjects = new Set(recorded.map((r) => `${r.shop} ${r.subjectKey}`));
    expect([...subjects]).toEqual(['failing.myshopify.com poll:catalog_key_refused']);
    expect(recorded[0]?.error).toMatchObject({ code: 'catalog_key_refused', retryable: false });
    expect(recorded[0]?.error.message).toContain('failing.myshopify.com');
  });
});
