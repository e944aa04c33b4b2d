import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { CatalogModule } from '../clients/catalog/catalog.module.js';
import { ShopifyModule } from '../clients/shopify/shopify.module.js';
import { IntakeModule } from '../intake/intake.module.js';
import { MappingModule } from '../mapping/mapping.module.js';
import { FailuresModule } from '../platform/failures/failures.module.js';
import { CatalogSyncSteps } from './apply/catalog-sync-steps.service.js';
import { ShopCurrencies } from './apply/shop-currencies.service.js';
import { DriftScanner } from './drift-scanner.service.js';
import { MappingGapRow } from './gaps/mapping-gap.entity.js';
import { MappingGapsRepository } from './gaps/mapping-gaps.repository.js';
import { PlannedWriteRow } from './planned/planned-write.entity.js';
import { PlannedWritesRepository } from './planned/planned-writes.repository.js';
import { ProductDryRun } from './product-dry-run.service.js';
import { ProductLocksModule } from './product-locks.service.js';
import { ProductReader } from './product-reader.service.js';
import { ProductSyncShopData } from './product-sync-shop-data.service.js';
import { ProductSyncState } from './product-sync-state.entity.js';
import { ProductSyncStates } from './product-sync-states.repository.js';
import { ResyncSnapshotRow } from './resync-snapshot.entity.js';
import { ResyncSnapshots } from './resync-snapshots.repository.js';
import { CollectionWalker } from './scope/collection-walker.service.js';
import { ScopeGate } from './scope/scope-gate.service.js';
import { ScopeProducts } from './scope/scope-products.service.js';
import { ScopeScanner } from './scope/scope-scanner.service.js';
import { ScopeWalkJob } from './scope/scope-walk.job.js';
import { ShopScopeRow } from './scope/shop-scope.entity.js';
import { ShopScopeRepository } from './scope/shop-scope.repository.js';
import { SkuMapModule } from './sku-map/sku-map.module.js';
import { SyncApplier } from './sync-applier.service.js';
import { SyncPlanner } from './sync-planner.service.js';
import { SyncProductJob } from './sync-product.job.js';
import { SyncRecordRow } from './sync-record.entity.js';
import { SyncRecorder } from './sync-recorder.service.js';
import { SyncRecords } from './sync-records.repository.js';
import { SyncRecordsRetention } from './sync-records-retention.service.js';
import { SyncReplay } from './sync-replay.service.js';
import { SyncTurns } from './sync-turns.service.js';

/**
 * The product sync: the job (read the product, plan against the sku map, make the catalog calls,
 * record the map), its state and records (and their retention), its replay handler, and the
 * configuration-drift scan, and the product scope (its gate, the comparison of a changed scope,
 * the walks of scoped collections), and the products' mapping gaps (`mapping_gaps`).
 */
@Module({
  imports: [
    TypeOrmModule.forFeature([
      ProductSyncState,
      SyncRecordRow,
      ShopScopeRow,
      ResyncSnapshotRow,
      PlannedWriteRow,
      MappingGapRow,
    ]),
    IntakeModule,
    FailuresModule,
    CatalogModule,
    ShopifyModule,
    SkuMapModule,
    ProductLocksModule,
    MappingModule,
  ],
  providers: [
    PlannedWritesRepository,
    MappingGapsRepository,
    ProductDryRun,
    ProductSyncStates,
    SyncRecords,
    SyncRecordsRetention,
    CatalogSyncSteps,
    ShopCurrencies,
    DriftScanner,
    SyncTurns,
    SyncPlanner,
    ProductReader,
    SyncApplier,
    SyncRecorder,
    SyncProductJob,
    SyncReplay,
    ProductSyncShopData,
    ScopeGate,
    ScopeProducts,
    ScopeScanner,
    ShopScopeRepository,
    CollectionWalker,
    ScopeWalkJob,
    ResyncSnapshots,
  ],
  exports: [
    ProductSyncStates,
    SyncRecords,
    ResyncSnapshots,
    PlannedWritesRepository,
    ProductDryRun,
    MappingGapsRepository,
    ScopeGate,
  ],
})
export class ProductSyncModule {}
