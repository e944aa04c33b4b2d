import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { ShopifyModule } from '../clients/shopify/shopify.module.js';
import { MappingModule } from '../mapping/mapping.module.js';
import { FailuresModule } from '../platform/failures/failures.module.js';
import { EnqueueBatcher } from './enqueue-batcher.service.js';
import { InboxRepository } from './inbox.repository.js';
import { InboxService } from './inbox.service.js';
import { InboxEntry } from './inbox-entry.entity.js';
import { InboxRecovery } from './inbox-recovery.service.js';
import { InboxRetention } from './inbox-retention.service.js';
import { InboxShopData } from './inbox-shop-data.service.js';
import { InboxSweepJob } from './inbox-sweep.job.js';
import { InboxSweeper } from './inbox-sweeper.service.js';
import { InboxWriter } from './inbox-writer.service.js';
import { PendingDeliveries } from './pending-deliveries.service.js';
import { ScopeWalkRequests } from './scope-walk-requests.service.js';
import { ShopLifecycle } from './shop-lifecycle.service.js';
import { SubscriptionCheckJob } from './subscription-check.job.js';
import { SubscriptionCheckRequests } from './subscription-check-requests.service.js';
import { SubscriptionRepair } from './subscription-repair.service.js';
import { SubscriptionsAtBoot } from './subscriptions-at-boot.service.js';
import { SyncEnqueuer } from './sync-enqueuer.service.js';
import { WebhooksController } from './webhooks.controller.js';

/**
 * Intake: the door (signed deliveries in, the shops' subscriptions pointing at it), the inbox
 * that stores every delivery before it is answered, their batched enqueueing, and the sweeper
 * that queues what a crash left stored but unqueued.
 */
@Module({
  imports: [TypeOrmModule.forFeature([InboxEntry]), ShopifyModule, FailuresModule, MappingModule],
  controllers: [WebhooksController],
  providers: [
    InboxRepository,
    PendingDeliveries,
    InboxRetention,
    InboxService,
    InboxWriter,
    SyncEnqueuer,
    EnqueueBatcher,
    InboxSweeper,
    InboxSweepJob,
    InboxRecovery,
    SubscriptionsAtBoot,
    InboxShopData,
    ShopLifecycle,
    SubscriptionRepair,
    SubscriptionCheckJob,
    SubscriptionCheckRequests,
    ScopeWalkRequests,
  ],
  exports: [InboxRepository, PendingDeliveries, SyncEnqueuer, InboxSweeper, SubscriptionRepair],
})
export class IntakeModule {}
