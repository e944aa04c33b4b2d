import { Module } from '@nestjs/common';
import { CatalogModule } from '../../clients/catalog/catalog.module.js';
import { ShopifyModule } from '../../clients/shopify/shopify.module.js';
import { DriftModule } from '../../drift/drift.module.js';
import { IntakeModule } from '../../intake/intake.module.js';
import { MappingModule } from '../../mapping/mapping.module.js';
import { MediaModule } from '../../media/media.module.js';
import { FailuresModule } from '../../platform/failures/failures.module.js';
import { ProductSyncModule } from '../../product-sync/product-sync.module.js';
import { SkuMapModule } from '../../product-sync/sku-map/sku-map.module.js';
import { ResyncModule } from '../../resync/resync.module.js';
import { WriteBackModule } from '../../write-back/write-back.module.js';
import { MetricsModule } from '../metrics/metrics.module.js';
import { AdminDoctorController } from './admin-doctor.controller.js';
import { AdminDriftController } from './admin-drift.controller.js';
import { AdminEnrichmentController } from './admin-enrichment.controller.js';
import { AdminFailuresController } from './admin-failures.controller.js';
import { AdminLinkController } from './admin-link.controller.js';
import { AdminMappingGapsController } from './admin-mapping-gaps.controller.js';
import { AdminMappingSetupController } from './admin-mapping-setup.controller.js';
import { AdminPreviewController } from './admin-preview.controller.js';
import { AdminProductSyncController } from './admin-product-sync.controller.js';
import { AdminProductsController } from './admin-products.controller.js';
import { AdminReconcileController } from './admin-reconcile.controller.js';
import { AdminResyncController } from './admin-resync.controller.js';
import { AdminShopsController } from './admin-shops.controller.js';
import { AdminSyncController } from './admin-sync.controller.js';
import { AdminTokenGuard } from './admin-token.guard.js';
import { AdminWriteBackController } from './admin-write-back.controller.js';
import { Doctor } from './doctor.service.js';
import { GoLive } from './go-live.service.js';
import { MappingDrafts } from './mapping-drafts.service.js';
import { MappingEvaluations } from './mapping-evaluations.service.js';
import { MappingGapList } from './mapping-gap-list.service.js';
import { ProductStatus } from './product-status.service.js';
import { ProductTimeline } from './product-timeline.service.js';
import { ShopEntries } from './shop-entries.service.js';

/** `/admin`: the operators' API, every route behind `AdminTokenGuard` (the web view is `AdminUiModule`). */
@Module({
  imports: [
    DriftModule,
    FailuresModule,
    MetricsModule,
    CatalogModule,
    ShopifyModule,
    IntakeModule,
    MappingModule,
    SkuMapModule,
    ProductSyncModule,
    MediaModule,
    ResyncModule,
    WriteBackModule,
  ],
  controllers: [
    AdminFailuresController,
    AdminSyncController,
    AdminProductsController,
    AdminProductSyncController,
    AdminResyncController,
    AdminReconcileController,
    AdminLinkController,
    AdminEnrichmentController,
    AdminShopsController,
    AdminPreviewController,
    AdminDriftController,
    AdminWriteBackController,
    AdminMappingGapsController,
    AdminMappingSetupController,
    AdminDoctorController,
  ],
  providers: [
    AdminTokenGuard,
    ProductTimeline,
    ProductStatus,
    ShopEntries,
    GoLive,
    MappingGapList,
    MappingDrafts,
    MappingEvaluations,
    Doctor,
  ],
  exports: [ProductTimeline, ProductStatus, ShopEntries, GoLive, MappingGapList, Doctor],
})
export class AdminModule {}
