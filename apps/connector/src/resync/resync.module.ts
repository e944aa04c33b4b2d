import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { CatalogModule } from '../catalog/catalog.module.js';
import { FailuresModule } from '../failures/failures.module.js';
import { InboxModule } from '../inbox/inbox.module.js';
import { ShopifyModule } from '../shopify/shopify.module.js';
import { SkuMapLinks } from '../sku-map/sku-map-links.js';
import { SkuMapRow } from '../sku-map/sku-map-row.entity.js';
import { SyncEventsModule } from '../sync/sync-events.js';
import { LinkService } from './link.service.js';
import { ReconcileJob } from './reconcile.job.js';
import { ReconcileCheckpoint } from './reconcile-checkpoint.entity.js';
import { Reconciler } from './reconciler.js';
import { ResyncService } from './resync.service.js';
import { ResyncPageJob } from './resync-page.job.js';
import { ResyncPageReplay } from './resync-page.replay.js';
import { ResyncProgress } from './resync-progress.js';
import { ResyncRecovery } from './resync-recovery.js';
import { ResyncRetention } from './resync-retention.js';
import { ResyncRun } from './resync-run.entity.js';
import { ResyncRunsRepository } from './resync-runs.repository.js';
import { SeenProducts } from './seen-products.js';

/**
 * ⑦ Convergence: resync runs (a product, or a whole shop walked page by page), linking a
 * pre-filled catalog before the first run, and the scheduled reconciliation of missed webhooks.
 */
@Module({
  imports: [
    TypeOrmModule.forFeature([ResyncRun, ReconcileCheckpoint, SkuMapRow]),
    InboxModule,
    FailuresModule,
    CatalogModule,
    ShopifyModule,
    SyncEventsModule,
  ],
  providers: [
    ResyncRunsRepository,
    ResyncService,
    ResyncPageJob,
    ResyncPageReplay,
    ResyncProgress,
    ResyncRetention,
    SkuMapLinks,
    LinkService,
    SeenProducts,
    Reconciler,
    ReconcileJob,
    ResyncRecovery,
  ],
  exports: [ResyncService, LinkService, Reconciler],
})
export class ResyncModule {}
