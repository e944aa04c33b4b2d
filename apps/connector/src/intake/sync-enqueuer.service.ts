import { InjectQueue } from '@nestjs/bullmq';
import { Injectable } from '@nestjs/common';
import type { Queue } from 'bullmq';
import { Clock } from '#lib/clock';
import { SyncSettings } from '../platform/config/settings.js';
import { syncLane, syncProductJobOptions } from '../platform/queues/job-options.js';
import type { SyncProductPayload } from '../platform/queues/job-payloads.js';
import { JobName, QueueName } from '../platform/queues/queue-names.js';
import { lanePriority, ShopLanes } from '../platform/queues/shop-lanes.js';
import { raiseJoinedSync, readJoinedSync } from '../platform/queues/waiting-sync.js';
import { RecentDeliveries } from './recent-deliveries.js';
import { ShopPace } from './shop-pace.js';

/**
 * Asks for a product sync. Deduplicated per product (`syncProductJobOptions`), so calling it once
 * per delivery, per sweep and per replay is safe: a waiting job absorbs the call, and a webhook
 * delivery restarts its debounce (up to the maximum wait) and raises a bulk job it joins to its
 * own priority, both read first by `readJoinedSync`. A webhook delivery for a product with no job
 * in flight, when the product had no delivery within the last debounce period and its shop is
 * calm (`ShopPace.forDebounce`), leads: its job has no delay (`RecentDeliveries`), so a lone edit is not
 * held for a burst that does not come, while a storm over many products leads once and trails
 * (its calls ratio kept).
 * Every sync takes its turn in its shop's lane (`ShopLanes`): a shop's backlog, a storm or a
 * resync, does not hold up another shop's edit (docs/sync.md, "Fairness across shops").
 */
@Injectable()
export class SyncEnqueuer {
  private readonly recent: RecentDeliveries;
  private readonly lanes = new ShopLanes();
  private readonly shops: ShopPace;

  constructor(
    @InjectQueue(QueueName.SYNC_PRODUCT) private readonly queue: Queue<SyncProductPayload>,
    private readonly settings: SyncSettings,
    private readonly clock: Clock,
  ) {
    this.recent = new RecentDeliveries(settings.debounceMs);
    this.shops = ShopPace.forDebounce(settings.debounceMs);
  }

  /** One sync: `enqueueMany` of one, so a single and a batched add cannot drift apart. */
  async enqueue(payload: SyncProductPayload): Promise<void> {
    await this.enqueueMany([payload]);
  }

  /**
   * Several syncs in one round trip (`addBulk`), each with its own `syncProductJobOptions`.
   * BullMQ 6 applies each job's `deduplication` in a bulk add exactly as in a single one (Redis:
   * the same add script per job, pipelined; PostgreSQL backend: `add_flow` deduplicates per
   * entry), so a batch behaves as one add per payload, minus most round trips. Not atomic: a
   * failure may leave some of them queued, which is harmless (they are deduplicated).
   */
  async enqueueMany(payloads: readonly SyncProductPayload[]): Promise<void> {
    if (payloads.length === 0) return;
    const now = this.clock.now();
    // Round-robin by shop, each with its turn in its shop's lane (its priority).
    const turns = this.lanes.take(payloads, syncLane, now);
    const ordered = turns.map((t) => t.item);
    // Each webhook's waiting job is read first, so its debounce restarts (`readJoinedSync`).
    const joined = await Promise.all(ordered.map((payload) => readJoinedSync(this.queue, payload)));
    // Read before noting: a batch's deliveries of one product are one payload (the batcher's map).
    const leads = ordered.map((payload, i) => {
      if (payload.reason !== 'webhook' || !this.settings.leadingEdge) return false;
      const key = `${payload.shop}\u0000${payload.productId}`;
      // The shop calm too (`ShopPace.forDebounce`): a bulk edit over many products (a storm) leads once,
      // then trails, so it keeps its calls ratio; a lone edit, the merchant's usual save, leads.
      const lead =
        !joined[i]?.inFlight && this.recent.isQuiet(key, now) && this.shops.isCalm(payload.shop, now);
      this.recent.note(key, now);
      this.shops.note(payload.shop, now);
      return lead;
    });
    await this.queue.addBulk(
      turns.map(({ item: payload, turn }, i) => ({
        name: JobName.SYNC_PRODUCT,
        data: payload,
        opts: syncProductJobOptions(this.settings, payload, joined[i]?.waiting, leads[i], turn),
      })),
    );
    // A job the delivery joined that waits behind (a resync's) goes to the delivery's own place.
    await Promise.all(
      joined.map((j, i) => {
        const { item, turn } = turns[i] as (typeof turns)[number];
        return j.lowPriority ? raiseJoinedSync(j.lowPriority, lanePriority(syncLane(item), turn)) : undefined;
      }),
    );
  }
}
