import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { CatalogModule } from '../clients/catalog/catalog.module.js';
import { ShopifyModule } from '../clients/shopify/shopify.module.js';
import { IntakeModule } from '../intake/intake.module.js';
import { FailuresModule } from '../platform/failures/failures.module.js';
import { MediaDryRunsModule } from '../product-sync/media-dry-runs.service.js';
import { ProductSyncModule } from '../product-sync/product-sync.module.js';
import { SkuMapModule } from '../product-sync/sku-map/sku-map.module.js';
import { LinkService } from './link.service.js';
import { ReconcileJob } from './reconcile.job.js';
import { ReconcileCheckpoint } from './reconcile-checkpoint.entity.js';
import { ReconcileCheckpointsRepository } from './reconcile-checkpoints.repository.js';
import { Reconciler } from './reconciler.service.js';
import { ResyncService } from './resync.service.js';
import { ResyncBulkWalk } from './resync-bulk-walk.service.js';
import { ResyncDryRun } from './resync-dry-run.service.js';
import { ResyncPageJob } from './resync-page.job.js';
import { ResyncPageReplay } from './resync-page-replay.service.js';
import { ResyncProgress } from './resync-progress.service.js';
import { ResyncRecovery } from './resync-recovery.service.js';
import { ResyncRetention } from './resync-retention.service.js';
import { ResyncRun } from './resync-run.entity.js';
import { ResyncRunsRepository } from './resync-runs.repository.js';
import { ResyncShopData } from './resync-shop-data.service.js';
import { SeenProducts } from './seen-products.service.js';
import { ShopProductKeys } from './shop-product-keys.service.js';

/**
 * ⑦ Convergence: resync runs (a product, or a whole shop walked page by page), linking a
 * pre-filled catalog before the first run, and the scheduled reconciliation of missed webhooks.
 */
@Module({
  imports: [
    TypeOrmModule.forFeature([ResyncRun, ReconcileCheckpoint]),
    SkuMapModule,
    IntakeModule,
    FailuresModule,
    CatalogModule,
    ShopifyModule,
    ProductSyncModule,
    MediaDryRunsModule,
  ],
  providers: [
    ResyncRunsRepository,
    ResyncBulkWalk,
    ResyncDryRun,
    ShopProductKeys,
    ResyncService,
    ResyncPageJob,
    ResyncPageReplay,
    ResyncProgress,
    ResyncRetention,
    LinkService,
    Reconciler,
    ReconcileCheckpointsRepository,
    SeenProducts,
    ReconcileJob,
    ResyncRecovery,
    ResyncShopData,
  ],
  exports: [
    ResyncProgress,
    ResyncService,
    LinkService,
    Reconciler,
    ResyncRunsRepository,
    ReconcileCheckpointsRepository,
  ],
})
export class ResyncModule {}
