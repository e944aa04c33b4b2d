import { Module } from '@nestjs/common';
import { CatalogModule } from '../../clients/catalog/catalog.module.js';
import { ShopifyModule } from '../../clients/shopify/shopify.module.js';
import { DriftModule } from '../../drift/drift.module.js';
import { IntakeModule } from '../../intake/intake.module.js';
import { MappingModule } from '../../mapping/mapping.module.js';
import { FailuresModule } from '../../platform/failures/failures.module.js';
import { ProductSyncModule } from '../../product-sync/product-sync.module.js';
import { SkuMapModule } from '../../product-sync/sku-map/sku-map.module.js';
import { ResyncModule } from '../../resync/resync.module.js';
import { WriteBackModule } from '../../write-back/write-back.module.js';
import { AdminModule } from '../admin/admin.module.js';
import { AlertsModule } from '../alerts/alerts.module.js';
import { MetricsModule } from '../metrics/metrics.module.js';
import { OverviewModule } from '../overview/overview.module.js';
import { RunsModule } from '../runs/runs.module.js';
import { AdminSession } from './admin-session.service.js';
import { AdminUiController } from './admin-ui.controller.js';
import { AdminUiGuard } from './admin-ui.guard.js';
import { AdminUiActionsController } from './admin-ui-actions.controller.js';
import { AdminUiAlertsController } from './admin-ui-alerts.controller.js';
import { AdminUiBulkController } from './admin-ui-bulk.controller.js';
import { AdminUiDoctorController } from './admin-ui-doctor.controller.js';
import { AdminUiDriftController } from './admin-ui-drift.controller.js';
import { AdminUiFailureController } from './admin-ui-failure.controller.js';
import { AdminUiFiguresController } from './admin-ui-figures.controller.js';
import { AdminUiLinkController } from './admin-ui-link.controller.js';
import { AdminUiMappingGapsController } from './admin-ui-mapping-gaps.controller.js';
import { AdminUiOverviewController } from './admin-ui-overview.controller.js';
import { AdminUiPollController } from './admin-ui-poll.controller.js';
import { AdminUiProductController } from './admin-ui-product.controller.js';
import { AdminUiResyncController } from './admin-ui-resync.controller.js';
import { AdminUiRunsController } from './admin-ui-runs.controller.js';
import { AdminUiShopSettingsController } from './admin-ui-shop-settings.controller.js';
import { QueuesBoard } from './queues-board.service.js';
import { RootRedirectController } from './root-redirect.controller.js';
import { UiProductTitles } from './ui-product-titles.service.js';
import { UiShopifySearch } from './ui-shopify-search.service.js';

/**
 * `/admin/ui`: the operators' web view (session cookie, CSRF) and the queue board. It reads what
 * the admin API reads (failures, metrics, a product's timeline and status), through that module's
 * exports, and acts through the services the admin API uses (resync, sync pauses, the enrichment poll).
 */
@Module({
  imports: [
    AdminModule,
    AlertsModule,
    CatalogModule,
    DriftModule,
    FailuresModule,
    IntakeModule,
    MappingModule,
    MetricsModule,
    OverviewModule,
    ProductSyncModule,
    ResyncModule,
    RunsModule,
    ShopifyModule,
    SkuMapModule,
    WriteBackModule,
  ],
  controllers: [
    AdminUiOverviewController,
    AdminUiFiguresController,
    AdminUiController,
    AdminUiProductController,
    AdminUiResyncController,
    AdminUiActionsController,
    AdminUiBulkController,
    AdminUiShopSettingsController,
    AdminUiDoctorController,
    AdminUiPollController,
    AdminUiDriftController,
    AdminUiLinkController,
    AdminUiMappingGapsController,
    AdminUiRunsController,
    RootRedirectController,
    // After the bulk controller: `failures/bulk` is its page, not a failure id.
    AdminUiFailureController,
    AdminUiAlertsController,
  ],
  providers: [AdminSession, AdminUiGuard, QueuesBoard, UiShopifySearch, UiProductTitles],
})
export class AdminUiModule {}
