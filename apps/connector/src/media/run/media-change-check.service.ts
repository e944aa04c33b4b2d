import { Injectable } from '@nestjs/common';
import { MediaSettings } from '../../platform/config/settings.js';
import type { SyncedProduct } from '../../product-sync/sync-events.js';
import { PgGalleryStateRepository } from '../store/gallery-state.repository.js';
import { PgImageMapRepository } from '../store/image-map.repository.js';
import { MediaStatusRepository } from '../store/media-status.repository.js';
import { mediaRunNeeded } from './media-change.js';
import { ProductMediaRunner } from './product-media-runner.service.js';

/**
 * Why: a media run after a sync that changed no image costs a Shopify read and a job for
 * nothing. Loads what the media store recorded for the synced product (its records' last
 * galleries, the image map's rows of its images, its last run) and asks `mediaRunNeeded` with
 * the images the sync read. Database reads only; never Shopify or the catalog.
 */
@Injectable()
export class MediaChangeCheck {
  constructor(
    private readonly runner: ProductMediaRunner,
    private readonly galleries: PgGalleryStateRepository,
    private readonly imageMap: PgImageMapRepository,
    private readonly statuses: MediaStatusRepository,
    private readonly settings: MediaSettings,
  ) {}

  /** Why the synced product needs a media run; null when its images did not change since the last one. */
  async reasonToRun(event: SyncedProduct): Promise<string | null> {
    const images = event.product?.media;
    if (event.product === null || images === undefined) return 'images not read with the product';
    const { shop, productId } = event;
    const lastRun = await this.statuses.get(shop, productId);
    // A product the sync read with no image, and no media run yet: nothing to upload or clear
    // (a resync of a shop without images reads each product once, not twice).
    if (lastRun === null) return images.length === 0 ? null : 'no media run yet';
    const records = await this.runner.recordsOf(shop, productId);
    const skuIds = records.flatMap((r) => (r.skuId === null ? [] : [r.skuId]));
    const mediaIds = images.map((image) => image.id);
    return mediaRunNeeded({
      productGid: event.product.id,
      images,
      records,
      written: skuIds.length > 0 ? await this.galleries.find(shop, skuIds) : [],
      known: mediaIds.length > 0 ? await this.imageMap.findByMediaIds(shop, mediaIds) : [],
      lastRun,
      settings: { variantGalleries: this.settings.variantGalleries },
    });
  }
}
