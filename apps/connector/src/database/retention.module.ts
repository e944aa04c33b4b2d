import { Module } from '@nestjs/common';
import { RetentionJob } from './retention.job.js';
import { Retention } from './retention.js';
import { RetentionRecovery } from './retention-recovery.js';

/** The retention job and its scheduler (the registry itself is global, in `OperationsSeamsModule`). */
@Module({
  providers: [Retention, RetentionJob, RetentionRecovery],
  exports: [Retention],
})
export class RetentionModule {}
