import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { FailuresModule } from '../../platform/failures/failures.module.js';
import { AdminTokenGuard } from '../admin/admin-token.guard.js';
import { MetricsModule } from '../metrics/metrics.module.js';
import { OverviewModule } from '../overview/overview.module.js';
import { AdminAlertTargetsController } from './admin-alert-targets.controller.js';
import { AlertDeliveriesRepository } from './alert-deliveries.repository.js';
import { AlertDelivery } from './alert-delivery.entity.js';
import { AlertDeliveryJob } from './alert-delivery.job.js';
import { AlertEnqueuer } from './alert-enqueuer.service.js';
import { AlertGauges } from './alert-gauges.service.js';
import { AlertRegistrations } from './alert-registrations.service.js';
import { AlertSender } from './alert-sender.service.js';
import { AlertShopState } from './alert-shop-state.entity.js';
import { AlertTarget } from './alert-target.entity.js';
import { AlertTargetsRepository } from './alert-targets.repository.js';
import { AlertTargets } from './alert-targets.service.js';
import { AlertWatch } from './alert-watch.service.js';

/**
 * Alerts (issue 42): the operators' notification targets, the scheduled look at every shop's
 * overview state with its debounce, and the deliveries of each change (retried, recorded, in the
 * failures inbox when they run out). The web view's page reads it through its exports.
 */
@Module({
  imports: [
    TypeOrmModule.forFeature([AlertTarget, AlertDelivery, AlertShopState]),
    FailuresModule,
    MetricsModule,
    OverviewModule,
  ],
  controllers: [AdminAlertTargetsController],
  providers: [
    AdminTokenGuard,
    AlertTargetsRepository,
    AlertDeliveriesRepository,
    AlertTargets,
    AlertSender,
    AlertEnqueuer,
    AlertWatch,
    AlertDeliveryJob,
    AlertRegistrations,
    AlertGauges,
  ],
  exports: [AlertTargets, AlertDeliveriesRepository],
})
export class AlertsModule {}
