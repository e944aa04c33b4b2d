import { Module } from '@nestjs/common';
import { IntakeModule } from '../../intake/intake.module.js';
import { FailuresModule } from '../../platform/failures/failures.module.js';
import { WriteBackModule } from '../../write-back/write-back.module.js';
import { AdminModule } from '../admin/admin.module.js';
import { MetricsModule } from '../metrics/metrics.module.js';
import { OverviewModule } from '../overview/overview.module.js';
import { AdminSession } from './admin-session.js';
import { AdminUiController } from './admin-ui.controller.js';
import { AdminUiGuard } from './admin-ui.guard.js';
import { AdminUiOverviewController } from './admin-ui-overview.controller.js';
import { QueuesBoard } from './queues-board.js';

/**
 * `/admin/ui`: the operators' web view (session cookie, CSRF) and the queue board. It reads what
 * the admin API reads (failures, metrics, a product's timeline), through that module's exports.
 */
@Module({
  imports: [AdminModule, FailuresModule, IntakeModule, MetricsModule, OverviewModule, WriteBackModule],
  controllers: [AdminUiOverviewController, AdminUiController],
  providers: [AdminSession, AdminUiGuard, QueuesBoard],
})
export class AdminUiModule {}
