import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { DELIVERY_INBOX } from '../connector.tokens.js';
import { EnqueueBatcher } from './enqueue-batcher.js';
import { InboxRepository } from './inbox.repository.js';
import { InboxService } from './inbox.service.js';
import { InboxEntry } from './inbox-entry.entity.js';
import { InboxRecovery } from './inbox-recovery.js';
import { InboxSweepJob } from './inbox-sweep.job.js';
import { InboxSweeper } from './inbox-sweeper.js';
import { InboxWriter } from './inbox-writer.js';
import { SyncEnqueuer } from './sync-enqueuer.js';

/** ② The inbox: stored deliveries (the door's `DELIVERY_INBOX`), their enqueueing (batched), the sweeper. */
@Module({
  imports: [TypeOrmModule.forFeature([InboxEntry])],
  providers: [
    InboxRepository,
    InboxService,
    InboxWriter,
    { provide: DELIVERY_INBOX, useExisting: InboxService },
    SyncEnqueuer,
    EnqueueBatcher,
    InboxSweeper,
    InboxSweepJob,
    InboxRecovery,
  ],
  exports: [InboxRepository, DELIVERY_INBOX, SyncEnqueuer, InboxSweeper],
})
export class InboxModule {}
