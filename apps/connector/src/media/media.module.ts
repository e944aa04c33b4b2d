import { type DynamicModule, Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { CatalogModule } from '../catalog/catalog.module.js';
import { FailuresModule } from '../failures/failures.module.js';
import { ShopifyModule } from '../shopify/shopify.module.js';
import { SyncEventsModule } from '../sync/sync-events.js';
import { ImageFetchers } from './job/image-fetchers.js';
import { MediaChangeCheck } from './job/media-change-check.js';
import { MediaEnqueuer } from './job/media-enqueuer.js';
import { MediaHooks } from './job/media-hooks.js';
import { MediaRecovery } from './job/media-recovery.js';
import { ProductMediaRunner } from './job/product-media-runner.js';
import { SyncMediaJob } from './job/sync-media.job.js';
import { PgGalleryStateRepository } from './store/gallery-state.repository.js';
import { PgImageMapRepository } from './store/image-map.repository.js';
import { MediaGalleryStateEntity } from './store/media-gallery-state.entity.js';
import { MediaImageMapEntity } from './store/media-image-map.entity.js';
import { MediaProductStatusEntity } from './store/media-product-status.entity.js';
import { MediaStatusRepository } from './store/media-status.repository.js';

/**
 * ⑤ Product images into the catalog: after each product sync, a media job of its own (queue
 * `sync-media`, lower priority, catalog calls at `bulk`) uploads the images the image map does
 * not know and writes each record's `media` whole, in Shopify's order. `MediaStatusRepository`
 * is exported for the product's status (its notes).
 */
@Module({})
export class MediaModule {}

/** `skuMap`: the app's one sku map module instance (`skuMapModule(mapping)`), for the records. */
export function mediaModule(skuMap: DynamicModule): DynamicModule {
  return {
    module: MediaModule,
    imports: [
      TypeOrmModule.forFeature([MediaImageMapEntity, MediaGalleryStateEntity, MediaProductStatusEntity]),
      CatalogModule,
      ShopifyModule,
      FailuresModule,
      SyncEventsModule,
      skuMap,
    ],
    providers: [
      PgImageMapRepository,
      PgGalleryStateRepository,
      MediaStatusRepository,
      ImageFetchers,
      MediaEnqueuer,
      MediaChangeCheck,
      MediaHooks,
      ProductMediaRunner,
      SyncMediaJob,
      MediaRecovery,
    ],
    exports: [MediaStatusRepository, MediaEnqueuer],
  };
}
