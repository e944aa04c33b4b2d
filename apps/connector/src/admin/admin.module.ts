import { Module } from '@nestjs/common';
import { FailuresModule } from '../failures/failures.module.js';
import { MetricsModule } from '../metrics/metrics.module.js';
import { AdminFailuresController } from './admin-failures.controller.js';
import { AdminTokenGuard } from './admin-token.guard.js';

/** `/admin`: the operators' API, every route behind `AdminTokenGuard`. */
@Module({
  imports: [FailuresModule, MetricsModule],
  controllers: [AdminFailuresController],
  providers: [AdminTokenGuard],
})
export class AdminModule {}
