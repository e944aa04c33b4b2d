import { Processor, WorkerHost } from '@nestjs/bullmq';
import type { Job } from 'bullmq';
import { Clock } from '#lib/clock';
import { EnrichmentSettings } from '../platform/config/settings.js';
import { JobGuard } from '../platform/failures/job-guard.service.js';
import type { EnrichmentPollPayload } from '../platform/queues/job-payloads.js';
import { QueueName } from '../platform/queues/queue-names.js';
import { WORKER_OPTIONS } from '../platform/queues/worker-options.js';
import { ShopTurns } from '../shops/shop-turns.service.js';
import { EarlyPolls } from './poll/early-polls.service.js';
import { EnrichmentPoller, emptyCounts } from './poll/enrichment-poller.service.js';
import { POLL_SUBJECT, ShopPollFailed } from './poll/shop-poll-failed.js';
import type { PollRunCounts } from './store/enrichment-poll-run.entity.js';
import { EnrichmentPollRuns } from './store/enrichment-poll-runs.repository.js';

/**
 * ⑥ One poll (scheduled, early or asked for): finds push work, commits it with the checkpoints,
 * enqueues it, and asks for an early poll while records wait (`EarlyPolls`). A scheduled poll
 * polls the shops whose turn came in its tick (`ShopTurns`: each shop once per
 * `CONNECTOR_ENRICHMENT_POLL_INTERVAL_MS`, spread over it; a tick with none records no poll);
 * an early one its shops; one an operator asked for every shop.
 */
@Processor(QueueName.ENRICHMENT_POLL, WORKER_OPTIONS)
export class EnrichmentPollJob extends WorkerHost {
  constructor(
    private readonly guard: JobGuard,
    private readonly poller: EnrichmentPoller,
    private readonly runs: EnrichmentPollRuns,
    private readonly early: EarlyPolls,
    private readonly turns: ShopTurns,
    private readonly settings: EnrichmentSettings,
    private readonly clock: Clock,
  ) {
    super();
  }

  async process(job: Job<EnrichmentPollPayload>, token?: string): Promise<PollRunCounts> {
    const id = String(job.id);
    const trigger = job.data.trigger ?? 'schedule';
    const only =
      job.data.shops ??
      (trigger === 'schedule'
        ? this.turns
            .due(QueueName.ENRICHMENT_POLL, this.settings.pollIntervalMs, job.id, job.processedOn)
            .map((s) => s.domain)
        : undefined);
    if (only !== undefined && only.length === 0) return emptyCounts();
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
      const startedAt = this.clock.now();
      try {
        const counts = await this.poller.poll(id, only);
        // Old finished polls and done work are pruned by the retention job (`operations-hooks.ts`).
        await this.runs.finished(id, counts);
        // While records wait for enrichment or review, the next poll comes sooner (`EarlyPolls`).
        await this.early.after(counts, this.clock.now() - startedAt);
        return counts;
      } catch (error) {
        await this.runs.finished(id, {}, (error as Error).message).catch(() => undefined);
        throw error;
      }
    });
  }
}
