import { Module } from '@nestjs/common';
import { DiscoveryModule } from '@nestjs/core';
import { TypeOrmModule } from '@nestjs/typeorm';
import { FailedJobRecorder } from './failed-job-recorder.service.js';
import { Failure } from './failure.entity.js';
import { FailuresRepository } from './failures.repository.js';
import { FailuresService } from './failures.service.js';
import { JobGuard } from './job-guard.service.js';
import { ReplayRegistry } from './replay-registry.service.js';

/** The generic failures table, the replay registry and the job guard (beside the stages). */
@Module({
  imports: [TypeOrmModule.forFeature([Failure]), DiscoveryModule],
  providers: [FailuresRepository, FailuresService, ReplayRegistry, JobGuard, FailedJobRecorder],
  exports: [FailuresRepository, FailuresService, ReplayRegistry, JobGuard],
})
export class FailuresModule {}
