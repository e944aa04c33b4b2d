import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { CatalogModule } from '../clients/catalog/catalog.module.js';
import { ShopifyModule } from '../clients/shopify/shopify.module.js';
import { FailuresModule } from '../platform/failures/failures.module.js';
import { MediaDryRunsModule } from '../product-sync/media-dry-runs.service.js';
import { ProductSyncModule } from '../product-sync/product-sync.module.js';
import { SkuMapModule } from '../product-sync/sku-map/sku-map.module.js';
import { ImageFetchers } from './run/image-fetchers.service.js';
import { MediaChangeCheck } from './run/media-change-check.service.js';
import { MediaEnqueuer } from './run/media-enqueuer.service.js';
import { MediaHooks } from './run/media-hooks.service.js';
import { MediaRecovery } from './run/media-recovery.service.js';
import { ProductMediaRunner } from './run/product-media-runner.service.js';
import { PgGalleryStateRepository } from './store/gallery-state.repository.js';
import { PgImageMapRepository } from './store/image-map.repository.js';
import { MediaGalleryStateEntity } from './store/media-gallery-state.entity.js';
import { MediaImageMapEntity } from './store/media-image-map.entity.js';
import { MediaProductStatusEntity } from './store/media-product-status.entity.js';
import { MediaShopData } from './store/media-shop-data.service.js';
import { MediaStatusRepository } from './store/media-status.repository.js';
import { SyncMediaJob } from './sync-media.job.js';

/**
 * ⑤ Product images into the catalog: after each product sync, a media job of its own (queue
 * `sync-media`, lower priority, catalog calls at `bulk`) uploads the images the image map does
 * not know and writes each record's `media` whole, in Shopify's order. `MediaStatusRepository`
 * is exported for the product's status (its notes).
 */
@Module({
  imports: [
    TypeOrmModule.forFeature([MediaImageMapEntity, MediaGalleryStateEntity, MediaProductStatusEntity]),
    CatalogModule,
    ShopifyModule,
    FailuresModule,
    SkuMapModule,
    ProductSyncModule,
    MediaDryRunsModule,
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
    MediaShopData,
  ],
  exports: [MediaHooks, MediaStatusRepository, MediaEnqueuer],
})
export class MediaModule {}
