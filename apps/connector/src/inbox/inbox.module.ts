import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { InboxRepository } from './inbox.repository.js';
import { InboxService } from './inbox.service.js';
import { InboxEntry } from './inbox-entry.entity.js';
import { InboxSweepJob } from './inbox-sweep.job.js';
import { InboxSweeper } from './inbox-sweeper.js';
import { SyncEnqueuer } from './sync-enqueuer.js';

/** ② The inbox: stored deliveries, their enqueueing, and the sweeper for orphans. */
@Module({
  imports: [TypeOrmModule.forFeature([InboxEntry])],
  providers: [InboxRepository, InboxService, SyncEnqueuer, InboxSweeper, InboxSweepJob],
  exports: [InboxRepository, InboxService, SyncEnqueuer, InboxSweeper],
})
export class InboxModule {}
