import { type DynamicModule, Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { CatalogModule } from '../clients/catalog/catalog.module.js';
import { ShopifyModule } from '../clients/shopify/shopify.module.js';
import { FailuresModule } from '../platform/failures/failures.module.js';
import { ProductLocksModule } from '../product-sync/product-locks.js';
import { SkuMapModule } from '../product-sync/sku-map/sku-map.module.js';
import { SyncEventsModule } from '../product-sync/sync-events.js';
import { EnrichmentPollJob } from './enrichment-poll.job.js';
import { EnrichmentPushJob } from './enrichment-push.job.js';
import { EnrichmentOperationsHooks } from './operations-hooks.js';
import { EnrichmentPollScheduler } from './poll/enrichment-poll-scheduler.js';
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
export class WriteBackModule {}

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

/**
 * Global, so the operations (admin API) reach the poll scheduler without importing a dynamic
 * module.
 */
export function writeBackModule(mapping: DynamicModule): DynamicModule {
  return {
    module: WriteBackModule,
    global: true,
    imports: [
      TypeOrmModule.forFeature(ENRICHMENT_ENTITIES),
      CatalogModule,
      ShopifyModule,
      FailuresModule,
      SyncEventsModule,
      mapping,
      SkuMapModule,
      ProductLocksModule,
    ],
    providers: [
      EnrichmentOutbox,
      EnrichmentPollRuns,
      WriteBackStates,
      MappedRecords,
      ShopPollLock,
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
    ],
    exports: [EnrichmentPollScheduler, OverwriteRequests, WriteBackStates, EnrichmentHooks],
  };
}
