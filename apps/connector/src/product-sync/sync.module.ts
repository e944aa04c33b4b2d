import { type DynamicModule, Module, type ModuleMetadata } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { CatalogModule } from '../clients/catalog/catalog.module.js';
import { ShopifyModule } from '../clients/shopify/shopify.module.js';
import { SYNC_HOOKS, SYNC_STEPS } from '../connector.tokens.js';
import { InboxModule } from '../intake/inbox.module.js';
import { FailuresModule } from '../platform/failures/failures.module.js';
import { ProductLocks } from './product-locks.js';
import { ProductSyncState } from './product-sync-state.entity.js';
import { ProductSyncStates } from './product-sync-states.js';
import { SyncEventsModule } from './sync-events.js';
import { NO_SYNC_HOOKS, type SyncHooks } from './sync-hooks.js';
import { SyncProductJob } from './sync-product.job.js';
import { SyncRecordRow } from './sync-record.entity.js';
import { SyncRecords } from './sync-records.repository.js';
import { SyncRecordsRetention } from './sync-records-retention.js';
import { SyncReplay } from './sync-replay.js';
import { NO_OP_SYNC_STEPS } from './sync-steps.js';

/** ③ The product sync job, its lock, its state, its records (and their retention) and its replay handler. */
@Module({})
export class SyncModule {}

/** What the composition root gives the sync stage. */
export interface SyncModuleOptions {
  /** Test seams (no-ops by default). */
  hooks?: Partial<SyncHooks>;
  /** The mapping module instance (one per app: `mappingModule(files)`). */
  mapping: DynamicModule;
  /**
   * The modules that provide `SYNC_STEPS` (the sku map stage). The composition root passes them
   * in, so the sync never imports a later stage; without them the steps do nothing.
   */
  steps?: NonNullable<ModuleMetadata['imports']>;
}

export function syncModule(options: SyncModuleOptions): DynamicModule {
  const steps = options.steps ?? [];
  return {
    module: SyncModule,
    imports: [
      TypeOrmModule.forFeature([ProductSyncState, SyncRecordRow]),
      InboxModule,
      FailuresModule,
      CatalogModule,
      ShopifyModule,
      SyncEventsModule,
      options.mapping,
      ...steps,
    ],
    providers: [
      { provide: SYNC_HOOKS, useValue: { ...NO_SYNC_HOOKS, ...options.hooks } },
      ...(steps.length === 0 ? [{ provide: SYNC_STEPS, useValue: NO_OP_SYNC_STEPS }] : []),
      ProductLocks,
      ProductSyncStates,
      SyncRecords,
      SyncRecordsRetention,
      SyncProductJob,
      SyncReplay,
    ],
    exports: [ProductSyncStates, SyncRecords],
  };
}
