import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { CatalogModule } from '../clients/catalog/catalog.module.js';
import { ShopifyModule } from '../clients/shopify/shopify.module.js';
import { MappingModule } from '../mapping/mapping.module.js';
import { FailuresModule } from '../platform/failures/failures.module.js';
import { PlannedWritesModule } from '../product-sync/planned/planned-writes.module.js';
import { ProductLocksModule } from '../product-sync/product-locks.service.js';
import { SkuMapModule } from '../product-sync/sku-map/sku-map.module.js';
import { WrittenBackValuesModule } from '../product-sync/written-back-values.service.js';
import { MetafieldDefinitions } from './definitions/metafield-definitions.service.js';
import { EnrichmentPollJob } from './enrichment-poll.job.js';
import { EnrichmentPushJob } from './enrichment-push.job.js';
import { EnrichmentRecovery } from './enrichment-recovery.service.js';
import { EarlyPolls } from './poll/early-polls.service.js';
import { EnrichmentPollScheduler } from './poll/enrichment-poll-scheduler.service.js';
import { EnrichmentPoller } from './poll/enrichment-poller.service.js';
import { PollBudgetShares } from './poll/poll-budget-shares.service.js';
import { ShopPollLock } from './poll/shop-poll-lock.service.js';
import { MerchantEdits } from './push/merchant-edits.service.js';
import { OverwriteRequests } from './push/overwrite-requests.service.js';
import { PushEnqueuer } from './push/push-enqueuer.service.js';
import { PushHistory } from './push/push-history.service.js';
import { PushNow } from './push/push-now.service.js';
import { ShopGraphql } from './push/shop-graphql.service.js';
import { WriteBackPusher } from './push/write-back-pusher.service.js';
import { WrittenBackDrift } from './push/written-back-drift.service.js';
import { EnrichmentCheckpoint } from './store/enrichment-checkpoint.entity.js';
import { EnrichmentOutboxRow } from './store/enrichment-outbox.entity.js';
import { EnrichmentOutbox } from './store/enrichment-outbox.repository.js';
import { EnrichmentPollRun } from './store/enrichment-poll-run.entity.js';
import { EnrichmentPollRuns } from './store/enrichment-poll-runs.repository.js';
import { EnrichmentSeen } from './store/enrichment-seen.entity.js';
import { ReviewWatch } from './store/review-watch.entity.js';
import { WriteBackPushRow } from './store/write-back-push.entity.js';
import { WriteBackStateRow } from './store/write-back-state.entity.js';
import { WriteBackStates } from './store/write-back-states.repository.js';
import { WriteBackRetention } from './write-back-retention.service.js';
import { WriteBackShopData } from './write-back-shop-data.service.js';
import { WriteBackStatus } from './write-back-status.service.js';

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

/** Enrichment write-back: the poll (scheduled, outbox), the push job per product, merchant edits. */
@Module({
  imports: [
    TypeOrmModule.forFeature(ENRICHMENT_ENTITIES),
    CatalogModule,
    ShopifyModule,
    FailuresModule,
    MappingModule,
    SkuMapModule,
    ProductLocksModule,
    PlannedWritesModule,
    WrittenBackValuesModule,
  ],
  providers: [
    EnrichmentOutbox,
    WriteBackShopData,
    EnrichmentPollRuns,
    WriteBackStates,
    ShopPollLock,
    PushEnqueuer,
    PushHistory,
    ShopGraphql,
    WriteBackPusher,
    PushNow,
    MetafieldDefinitions,
    MerchantEdits,
    OverwriteRequests,
    WrittenBackDrift,
    EnrichmentPoller,
    EarlyPolls,
    PollBudgetShares,
    EnrichmentPollScheduler,
    EnrichmentPollJob,
    EnrichmentPushJob,
    WriteBackRetention,
    WriteBackStatus,
    EnrichmentRecovery,
  ],
  exports: [
    MerchantEdits,
    EnrichmentPollRuns,
    EnrichmentPollScheduler,
    PollBudgetShares,
    OverwriteRequests,
    WriteBackStates,
    WriteBackStatus,
    MetafieldDefinitions,
    PushEnqueuer,
    PushNow,
  ],
})
export class WriteBackModule {}
