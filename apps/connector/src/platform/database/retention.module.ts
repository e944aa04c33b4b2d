import { Module } from '@nestjs/common';
import { RetentionJob } from './retention.job.js';
import { Retention } from './retention.js';

/** The retention job and its scheduler (the registry itself is global, in `OperationsSeamsModule`). */
@Module({
  providers: [Retention, RetentionJob],
  exports: [Retention],
})
export class RetentionModule {}
