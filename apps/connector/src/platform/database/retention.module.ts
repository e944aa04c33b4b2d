import { Module } from '@nestjs/common';
import { FailuresModule } from '../failures/failures.module.js';
import { RetentionJob } from './retention.job.js';
import { Retention } from './retention.service.js';

/** The retention job (its scheduler is in `JobSchedulers`; the registry is global, in `ReportingModule`). */
@Module({
  imports: [FailuresModule],
  providers: [Retention, RetentionJob],
  exports: [Retention],
})
export class RetentionModule {}
