import { InjectQueue } from '@nestjs/bullmq';
import { Injectable } from '@nestjs/common';
import type { Queue } from 'bullmq';
import { Clock } from '#lib/clock';
import { EnrichmentSettings } from '../../platform/config/settings.js';
import { enrichmentPushJobOptions, pushLane } from '../../platform/queues/job-options.js';
import type { EnrichmentPushPayload } from '../../platform/queues/job-payloads.js';
import { JobName, QueueName } from '../../platform/queues/queue-names.js';
import { ShopLanes } from '../../platform/queues/shop-lanes.js';

/** Pushes added in one round trip at most (a poll that found a shop's worth of work). */
const CHUNK = 500;

/**
 * Enqueues products' write-backs (coalesced per product: `enrichmentPushJobOptions`). Each takes
 * its turn in its shop's lane (`ShopLanes`): a poll that found 10,000 approvals in one shop does
 * not hold up another shop's one (docs/sync.md, "Fairness across shops").
 */
@Injectable()
export class PushEnqueuer {
  private readonly lanes = new ShopLanes();

  constructor(
    private readonly settings: EnrichmentSettings,
    @InjectQueue(QueueName.ENRICHMENT_PUSH) private readonly queue: Queue<EnrichmentPushPayload>,
    private readonly clock: Clock,
  ) {}

  async enqueue(payload: EnrichmentPushPayload): Promise<void> {
    await this.enqueueMany([payload]);
  }

  /** Several write-backs, a round trip per `CHUNK` (`addBulk` deduplicates each as `add` would). */
  async enqueueMany(payloads: readonly EnrichmentPushPayload[]): Promise<void> {
    for (let i = 0; i < payloads.length; i += CHUNK) {
      const turns = this.lanes.take(payloads.slice(i, i + CHUNK), pushLane, this.clock.now());
      await this.queue.addBulk(
        turns.map(({ item, turn }) => ({
          name: JobName.ENRICHMENT_PUSH,
          data: item,
          opts: enrichmentPushJobOptions(this.settings, item, turn),
        })),
      );
    }
  }
}
