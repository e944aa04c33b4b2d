import { Module } from '@nestjs/common';
import { CatalogModule } from '../../clients/catalog/catalog.module.js';
import { FailuresModule } from '../../platform/failures/failures.module.js';
import { ResyncModule } from '../../resync/resync.module.js';
import { MetricsModule } from '../metrics/metrics.module.js';
import { AdminEnrichmentController } from './admin-enrichment.controller.js';
import { AdminFailuresController } from './admin-failures.controller.js';
import { AdminLinkController } from './admin-link.controller.js';
import { AdminProductsController } from './admin-products.controller.js';
import { AdminResyncController } from './admin-resync.controller.js';
import { AdminSyncController } from './admin-sync.controller.js';
import { AdminTokenGuard } from './admin-token.guard.js';
import { ProductStatus } from './product-status.js';
import { ProductTimeline } from './product-timeline.js';
import { SyncRecordsTimeline } from './sync-records-timeline.js';
import { AdminSession } from './ui/admin-session.js';
import { AdminUiController } from './ui/admin-ui.controller.js';
import { AdminUiGuard } from './ui/admin-ui.guard.js';
import { QueuesBoard } from './ui/queues-board.js';

/** `/admin`: the operators' API (every route behind `AdminTokenGuard`) and the web view `/admin/ui` (session cookie). */
@Module({
  imports: [FailuresModule, MetricsModule, CatalogModule, ResyncModule],
  controllers: [
    AdminFailuresController,
    AdminSyncController,
    AdminProductsController,
    AdminResyncController,
    AdminLinkController,
    AdminEnrichmentController,
    AdminUiController,
  ],
  providers: [
    AdminTokenGuard,
    AdminSession,
    AdminUiGuard,
    ProductTimeline,
    ProductStatus,
    SyncRecordsTimeline,
    QueuesBoard,
  ],
})
export class AdminModule {}
