import { type DynamicModule, Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { CatalogModule } from '../clients/catalog/catalog.module.js';
import { ShopifyModule } from '../clients/shopify/shopify.module.js';
import { SYNC_HOOKS } from '../connector.tokens.js';
import { IntakeModule } from '../intake/intake.module.js';
import { FailuresModule } from '../platform/failures/failures.module.js';
import { CatalogSyncSteps } from './apply/catalog-sync-steps.js';
import { ShopCurrencies } from './apply/shop-currencies.js';
import { DriftScanner } from './drift-scanner.js';
import { ProductLocksModule } from './product-locks.js';
import { ProductSyncState } from './product-sync-state.entity.js';
import { ProductSyncStates } from './product-sync-states.js';
import { SkuMapModule } from './sku-map/sku-map.module.js';
import { SyncEventsModule } from './sync-events.js';
import { NO_SYNC_HOOKS, type SyncHooks } from './sync-hooks.js';
import { SyncProductJob } from './sync-product.job.js';
import { SyncRecordRow } from './sync-record.entity.js';
import { SyncRecords } from './sync-records.repository.js';
import { SyncRecordsRetention } from './sync-records-retention.js';
import { SyncReplay } from './sync-replay.js';

/**
 * The product sync: the job (read the product, plan against the sku map, make the catalog calls,
 * record the map), its state and records (and their retention), its replay handler, and the
 * configuration-drift scan.
 */
@Module({})
export class ProductSyncModule {}

/** What the composition root gives the product sync. */
export interface ProductSyncModuleOptions {
  /** Test seams (no-ops by default). */
  hooks?: Partial<SyncHooks>;
  /** The mapping module instance (one per app: `mappingModule(files)`). */
  mapping: DynamicModule;
}

/** Why a function: the mapping module is built from the files `createConnector` parsed, once per app. */
export function productSyncModule(options: ProductSyncModuleOptions): DynamicModule {
  return {
    module: ProductSyncModule,
    imports: [
      TypeOrmModule.forFeature([ProductSyncState, SyncRecordRow]),
      IntakeModule,
      FailuresModule,
      CatalogModule,
      ShopifyModule,
      SyncEventsModule,
      SkuMapModule,
      ProductLocksModule,
      options.mapping,
    ],
    providers: [
      { provide: SYNC_HOOKS, useValue: { ...NO_SYNC_HOOKS, ...options.hooks } },
      ProductSyncStates,
      SyncRecords,
      SyncRecordsRetention,
      CatalogSyncSteps,
      ShopCurrencies,
      DriftScanner,
      SyncProductJob,
      SyncReplay,
    ],
    exports: [ProductSyncStates, SyncRecords],
  };
}
