import { Injectable, Logger, type OnModuleInit } from '@nestjs/common';
import { MediaSettings } from '../../platform/config/settings.js';
import { ReplayRegistry } from '../../platform/failures/replay-registry.service.js';
import { syncLane } from '../../platform/queues/job-options.js';
import { JobName } from '../../platform/queues/queue-names.js';
import type { AfterSyncListener, SyncedProduct } from '../../product-sync/sync-events.js';
import { MediaChangeCheck } from './media-change-check.service.js';
import { MediaEnqueuer } from './media-enqueuer.service.js';

/**
 * Plugs media into the flow without the sync knowing it (an after-sync listener, listed in
 * connector.module.ts): after each product sync that kept the
 * product (`synced`), its media job is enqueued (when media is on) unless the images the sync
 * read did not change since the last media run (`MediaChangeCheck`); a failed media job or image
 * is replayed as a media run of its product.
 */
@Injectable()
export class MediaHooks implements AfterSyncListener, OnModuleInit {
  readonly afterSyncName = 'media';
  private readonly logger = new Logger('Media');

  constructor(
    private readonly changes: MediaChangeCheck,
    private readonly registry: ReplayRegistry,
    private readonly enqueuer: MediaEnqueuer,
    private readonly settings: MediaSettings,
  ) {}

  async afterSync(event: SyncedProduct): Promise<void> {
    if (!this.settings.enabled || event.outcome !== 'synced') return;
    if ((await this.changes.reasonToRun(event)) === null) {
      this.logger.debug(
        `${event.shop}/${event.productId}: images unchanged since the last media run, no media job`,
      );
      return;
    }
    // The images of a bulk sync (a resync's) wait in the bulk lane, an edit's in the live one.
    const lane = event.reason === undefined ? 'live' : syncLane({ reason: event.reason });
    await this.enqueuer.enqueue({ shop: event.shop, productId: event.productId, reason: 'synced' }, lane);
  }

  onModuleInit(): void {
    this.registry.register(JobName.SYNC_MEDIA, async (failure) => {
      const productId = failure.payload.productId;
      if (typeof productId !== 'string') throw new Error(`Failure ${failure.id} names no product`);
      await this.enqueuer.enqueue({ shop: failure.shop, productId, reason: 'replay', failureId: failure.id });
    });
  }
}
