import { InjectQueue } from '@nestjs/bullmq';
import { Injectable } from '@nestjs/common';
import type { Queue } from 'bullmq';
import { Clock } from '#lib/clock';
import { MediaSettings } from '../../platform/config/settings.js';
import { syncMediaJobOptions } from '../../platform/queues/job-options.js';
import type { SyncMediaPayload } from '../../platform/queues/job-payloads.js';
import { JobName, QueueName } from '../../platform/queues/queue-names.js';
import { type Lane, ShopLanes } from '../../platform/queues/shop-lanes.js';

/**
 * Asks for a product's media run. Deduplicated per product (`syncMediaJobOptions`), so asking
 * after every sync and for every replay is safe: a waiting job absorbs the call, and one asked
 * while a run is active becomes exactly one more run. Each run takes its turn in its shop's lane
 * (`ShopLanes`): the images of a shop's resync (bulk) never hold up another shop's edit's, nor
 * its own shop's edits' (docs/sync.md, "Fairness across shops").
 */
@Injectable()
export class MediaEnqueuer {
  private readonly lanes = new ShopLanes();

  constructor(
    @InjectQueue(QueueName.SYNC_MEDIA) private readonly queue: Queue<SyncMediaPayload>,
    private readonly settings: MediaSettings,
    private readonly clock: Clock,
  ) {}

  /** `lane`: bulk for the media of a bulk sync (a resync's), live otherwise (an edit's, a replay). */
  async enqueue(payload: SyncMediaPayload, lane: Lane = 'live'): Promise<void> {
    const [taken] = this.lanes.take([payload], () => lane, this.clock.now());
    await this.queue.add(
      JobName.SYNC_MEDIA,
      payload,
      syncMediaJobOptions(this.settings, payload, lane, taken?.turn ?? 0),
    );
  }
}
