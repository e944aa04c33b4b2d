import { type DynamicModule, Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { CatalogModule } from '../catalog/catalog.module.js';
import { FailuresModule } from '../failures/failures.module.js';
import { ShopifyModule } from '../shopify/shopify.module.js';
import { SkuMapRow } from '../sku-map/sku-map-row.entity.js';
import { ProductLocks } from '../sync/product-locks.js';
import { SyncEventsModule } from '../sync/sync-events.js';
import { EnrichmentPollJob } from './jobs/enrichment-poll.job.js';
import { EnrichmentPollScheduler } from './jobs/enrichment-poll-scheduler.js';
import { EnrichmentPushJob } from './jobs/enrichment-push.job.js';
import { EnrichmentRecovery } from './jobs/enrichment-recovery.js';
import { EnrichmentOperationsHooks } from './operations-hooks.js';
import { EnrichmentPoller } from './poll/enrichment-poller.js';
import { ShopPollLock } from './poll/shop-poll-lock.js';
import { EnrichmentHooks } from './push/enrichment-hooks.js';
import { MerchantEdits } from './push/merchant-edits.js';
import { OverwriteRequests } from './push/overwrite-requests.js';
import { PushEnqueuer } from './push/push-enqueuer.js';
import { ShopGraphql } from './push/shop-graphql.js';
import { WriteBackPusher } from './push/write-back-pusher.js';
import { EnrichmentCheckpoint } from './store/enrichment-checkpoint.entity.js';
import { EnrichmentOutboxRow } from './store/enrichment-outbox.entity.js';
import { EnrichmentOutbox } from './store/enrichment-outbox.repository.js';
import { EnrichmentPollRun } from './store/enrichment-poll-run.entity.js';
import { EnrichmentPollRuns } from './store/enrichment-poll-runs.repository.js';
import { EnrichmentSeen } from './store/enrichment-seen.entity.js';
import { MappedRecords } from './store/mapped-records.js';
import { ReviewWatch } from './store/review-watch.entity.js';
import { WriteBackPushRow } from './store/write-back-push.entity.js';
import { WriteBackStateRow } from './store/write-back-state.entity.js';
import { WriteBackStates } from './store/write-back-states.repository.js';

/** ⑥ Enrichment write-back: the poll (scheduled, outbox), the push job per product, merchant edits. */
@Module({})
export class EnrichmentModule {}

/** Every table of the write-back, for `TypeOrmModule.forFeature` (and medium tests). */
export const ENRICHMENT_ENTITIES = [
  EnrichmentCheckpoint,
  EnrichmentSeen,
  EnrichmentOutboxRow,
  ReviewWatch,
  WriteBackStateRow,
  WriteBackPushRow,
  EnrichmentPollRun,
];

/** The app's one instance of the modules the write-back shares with the sync. */
export interface EnrichmentModuleOptions {
  /** `mappingModule(files)`: the shops' checked mappings (`ShopMappings`). */
  mapping: DynamicModule;
  /** `skuMapModule(mapping)`: the sku map (`SkuMapRepository`). */
  skuMap: DynamicModule;
}

/**
 * Global, so the operations (admin API) reach the poll scheduler without importing a dynamic
 * module.
 */
export function enrichmentModule(options: EnrichmentModuleOptions): DynamicModule {
  return {
    module: EnrichmentModule,
    global: true,
    imports: [
      TypeOrmModule.forFeature([...ENRICHMENT_ENTITIES, SkuMapRow]),
      CatalogModule,
      ShopifyModule,
      FailuresModule,
      SyncEventsModule,
      options.mapping,
      options.skuMap,
    ],
    providers: [
      EnrichmentOutbox,
      EnrichmentPollRuns,
      WriteBackStates,
      MappedRecords,
      ShopPollLock,
      ProductLocks,
      PushEnqueuer,
      ShopGraphql,
      EnrichmentHooks,
      WriteBackPusher,
      MerchantEdits,
      OverwriteRequests,
      EnrichmentPoller,
      EnrichmentPollScheduler,
      EnrichmentPollJob,
      EnrichmentPushJob,
      EnrichmentOperationsHooks,
      EnrichmentRecovery,
    ],
    exports: [EnrichmentPollScheduler, OverwriteRequests, WriteBackStates, EnrichmentHooks],
  };
}
