import { type DynamicModule, Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { CatalogModule } from '../catalog/catalog.module.js';
import { SYNC_HOOKS, SYNC_STEPS } from '../connector.tokens.js';
import { FailuresModule } from '../failures/failures.module.js';
import { InboxModule } from '../inbox/inbox.module.js';
import type { ShopMappingFiles } from '../mapping/load-shop-mappings.js';
import { mappingModule } from '../mapping/mapping.module.js';
import { ShopifyModule } from '../shopify/shopify.module.js';
import { ProductLocks } from './product-locks.js';
import { ProductSyncState } from './product-sync-state.entity.js';
import { ProductSyncStates } from './product-sync-states.js';
import { NO_SYNC_HOOKS, type SyncHooks } from './sync-hooks.js';
import { SyncProductJob } from './sync-product.job.js';
import { SyncReplay } from './sync-replay.js';
import { NO_OP_SYNC_STEPS } from './sync-steps.js';

/** ③ The product sync job, its lock, its state and its replay handler. */
@Module({})
export class SyncModule {}

/**
 * `hooks`: test seams (no-ops by default); `mappingFiles`: each shop's parsed mapping file. The
 * catalog steps are no-ops until the sync engine.
 */
export function syncModule(
  hooks: Partial<SyncHooks> = {},
  mappingFiles: ShopMappingFiles = new Map(),
): DynamicModule {
  return {
    module: SyncModule,
    imports: [
      TypeOrmModule.forFeature([ProductSyncState]),
      InboxModule,
      FailuresModule,
      CatalogModule,
      ShopifyModule,
      mappingModule(mappingFiles),
    ],
    providers: [
      { provide: SYNC_HOOKS, useValue: { ...NO_SYNC_HOOKS, ...hooks } },
      { provide: SYNC_STEPS, useValue: NO_OP_SYNC_STEPS },
      ProductLocks,
      ProductSyncStates,
      SyncProductJob,
      SyncReplay,
    ],
    exports: [ProductSyncStates],
  };
}
