import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { Failure } from './failure.entity.js';
import { FailuresService } from './failures.service.js';
import { JobGuard } from './job-guard.js';
import { ReplayRegistry } from './replay-registry.js';

/** The generic failures table, the replay registry and the job guard (beside the stages). */
@Module({
  imports: [TypeOrmModule.forFeature([Failure])],
  providers: [FailuresService, ReplayRegistry, JobGuard],
  exports: [FailuresService, ReplayRegistry, JobGuard],
})
export class FailuresModule {}
