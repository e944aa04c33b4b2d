import { Module } from '@nestjs/common';
import { HealthController } from './health.controller.js';
import { Readiness } from './readiness.service.js';

/** Liveness and readiness (operations extend it with dependency details; the overview reads readiness). */
@Module({
  controllers: [HealthController],
  providers: [Readiness],
  exports: [Readiness],
})
export class HealthModule {}
