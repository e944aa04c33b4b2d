import { randomUUID } from 'node:crypto';
import { InjectQueue } from '@nestjs/bullmq';
import { Injectable, Logger } from '@nestjs/common';
import type { Queue } from 'bullmq';
import { Clock } from '#lib/clock';
import { CatalogClients } from '../../clients/catalog/catalog-clients.service.js';
import { CatalogSettings, EnrichmentSettings } from '../../platform/config/settings.js';
import {
  EARLY_POLL_DEDUPLICATION_ID,
  earlyEnrichmentPollJobOptions,
} from '../../platform/queues/job-options.js';
import type { EnrichmentPollPayload } from '../../platform/queues/job-payloads.js';
import { JobName, QueueName } from '../../platform/queues/queue-names.js';
import { SkuMapRepository } from '../../product-sync/sku-map/sku-map.repository.js';
import type { PollRunCounts } from '../store/enrichment-poll-run.entity.js';
import { EnrichmentPollRuns } from '../store/enrichment-poll-runs.repository.js';
import { dutyWaitMs, earlyPollPlan, type PolledShop } from './early-poll-plan.js';

/**
 * Adaptive polling: while a shop has records waiting for enrichment or review (a sync applied a
 * record within `CONNECTOR_ENRICHMENT_POLL_ACTIVE_WINDOW_MS`, or records on its review watchlist),
 * the poll that just ended enqueues the next one, for those shops only, after
 * `CONNECTOR_ENRICHMENT_POLL_ACTIVE_INTERVAL_MS`, put off or skipped to keep the polls within
 * `CONNECTOR_ENRICHMENT_POLL_BUDGET_SHARE` of each account's catalog budget (`earlyPollPlan`),
 * and within a tenth of the poll worker's time (`EARLY_POLL_DUTY`): after the poll that just ended
 * and after the last early poll of any replica (its run, `EnrichmentPollRuns.lastEarly`), each
 * measured by its own duration. (A scheduled tick polls a few shops; the early poll it plans
 * gathers every tick's waiting shops, so the tick's duration alone did not bound it.)
 * When nothing waits, no early poll is asked for and the schedule's interval is the pace again.
 *
 * The schedule stays a BullMQ job scheduler (`QUEUE_FLOW`); an early poll is one delayed job
 * with a deduplication id, so replicas that end polls at once still make one. The scheduled poll
 * takes a few shops a tick (spread over its interval): a tick whose shops wait while an early
 * poll of other shops is waiting adds its shops to that one, rather than being dropped by its
 * deduplication (the merged poll's counts then plan the next one with every shop's calls).
 */
@Injectable()
export class EarlyPolls {
  private readonly logger = new Logger('EarlyPolls');

  constructor(
    @InjectQueue(QueueName.ENRICHMENT_POLL) private readonly queue: Queue<EnrichmentPollPayload>,
    private readonly settings: EnrichmentSettings,
    private readonly catalog: CatalogSettings,
    private readonly clients: CatalogClients,
    private readonly map: SkuMapRepository,
    private readonly runs: EnrichmentPollRuns,
    private readonly clock: Clock,
  ) {}

  /**
   * After a poll (that took `tookMs`): enqueues the next early poll when shops have records
   * waiting. Never throws.
   */
  async after(counts: PollRunCounts, tookMs: number): Promise<{ delayMs: number; shops: string[] } | null> {
    try {
      const { activePollIntervalMs, pollIntervalMs, activeWindowMs, pollBudgetShare } = this.settings;
      if (activePollIntervalMs >= pollIntervalMs) return null;
      const now = this.clock.now();
      const polledShops = Object.keys(counts.shops ?? {});
      const applied = await this.map.appliedSince(polledShops, new Date(now - activeWindowMs));
      const polled: PolledShop[] = polledShops.map((shop) => ({
        shop,
        account: this.clients.forShop(shop).id,
        calls: counts.shops?.[shop]?.calls ?? 0,
        waiting: (counts.shops?.[shop]?.watched ?? 0) > 0 || applied.has(shop),
      }));
      const lastEarly = await this.runs.lastEarly();
      const afterEarly =
        lastEarly === null
          ? 0
          : lastEarly.finishedAt.getTime() +
            dutyWaitMs(lastEarly.finishedAt.getTime() - lastEarly.startedAt.getTime()) -
            now;
      const plan = earlyPollPlan(
        polled,
        {
          activeMs: activePollIntervalMs,
          normalMs: pollIntervalMs,
          ratePerSecond: this.catalog.ratePerSecond,
          share: pollBudgetShare,
        },
        Math.max(dutyWaitMs(tookMs), afterEarly),
      );
      if (plan === null) return null;
      if (await this.joinWaiting(plan.shops)) return plan;
      await this.queue.add(
        JobName.ENRICHMENT_POLL,
        { trigger: 'early', shops: plan.shops },
        earlyEnrichmentPollJobOptions(plan.delayMs, `poll-early-${randomUUID()}`),
      );
      return plan;
    } catch (error) {
      // The schedule still polls every shop: an early poll missed is a slower approval, no more.
      this.logger.warn(`No early enrichment poll: ${(error as Error).message}`);
      return null;
    }
  }

  /**
   * Adds `shops` to the early poll waiting (delayed) now, if there is one; false when there is
   * none (a new one is added). An early poll that starts meanwhile polls without them: they keep
   * their scheduled turn.
   */
  private async joinWaiting(shops: readonly string[]): Promise<boolean> {
    const id = await this.queue.getDeduplicationJobId(EARLY_POLL_DEDUPLICATION_ID);
    if (!id) return false;
    const job = await this.queue.getJob(id);
    if (job === undefined || !(await job.isDelayed())) return false;
    const waiting = job.data.shops ?? [];
    const union = [...new Set([...waiting, ...shops])];
    if (union.length > waiting.length) await job.updateData({ ...job.data, shops: union });
    return true;
  }
}
