import { Processor, WorkerHost } from '@nestjs/bullmq';
import type { Job } from 'bullmq';
import { JobGuard } from '../platform/failures/job-guard.service.js';
import type { EnrichmentPollPayload } from '../platform/queues/job-payloads.js';
import { QueueName } from '../platform/queues/queue-names.js';
import { WORKER_OPTIONS } from '../platform/queues/worker-options.js';
import { EarlyPolls } from './poll/early-polls.service.js';
import { EnrichmentPoller } from './poll/enrichment-poller.service.js';
import { POLL_SUBJECT, ShopPollFailed } from './poll/shop-poll-failed.js';
import type { PollRunCounts } from './store/enrichment-poll-run.entity.js';
import { EnrichmentPollRuns } from './store/enrichment-poll-runs.repository.js';

/**
 * ⑥ One poll (scheduled, early or asked for): finds push work, commits it with the checkpoints,
 * enqueues it, and asks for an early poll while records wait (`EarlyPolls`).
 */
@Processor(QueueName.ENRICHMENT_POLL, WORKER_OPTIONS)
export class EnrichmentPollJob extends WorkerHost {
  constructor(
    private readonly guard: JobGuard,
    private readonly poller: EnrichmentPoller,
    private readonly runs: EnrichmentPollRuns,
    private readonly early: EarlyPolls,
  ) {
    super();
  }

  async process(job: Job<EnrichmentPollPayload>, token?: string): Promise<PollRunCounts> {
    const id = String(job.id);
    const trigger = job.data.trigger ?? 'schedule';
    // A shop's poll failing again and again, for one cause, is one failure (not one per poll);
    // each shop polled resolves its poll's open failures. A poll that fails before any shop
    // (its run not stored) is every shop's poll (`*`), resolved by the next poll that succeeds.
    const failedOn = (error: unknown) =>
      error instanceof ShopPollFailed ? { shop: error.shop, key: error.subjectKey } : undefined;
    const doneFor = (outcome: { result: PollRunCounts } | { error: unknown }) => {
      const shops =
        'result' in outcome
          ? ['*', ...Object.keys(outcome.result.shops ?? {})]
          : outcome.error instanceof ShopPollFailed
            ? outcome.error.polled
            : [];
      return shops.map((shop) => ({ shop, key: POLL_SUBJECT }));
    };
    return this.guard.run(job, token, { shop: '*', key: POLL_SUBJECT, failedOn, doneFor }, async () => {
      await this.runs.started(id, trigger);
      try {
        const counts = await this.poller.poll(id, job.data.shops);
        // Old finished polls and done work are pruned by the retention job (`operations-hooks.ts`).
        await this.runs.finished(id, counts);
        // While records wait for enrichment or review, the next poll comes sooner (`EarlyPolls`).
        await this.early.after(counts);
        return counts;
      } catch (error) {
        await this.runs.finished(id, {}, (error as Error).message).catch(() => undefined);
        throw error;
      }
    });
  }
}
