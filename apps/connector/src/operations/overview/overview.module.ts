import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { CatalogModule } from '../../clients/catalog/catalog.module.js';
import { ShopifyModule } from '../../clients/shopify/shopify.module.js';
import { IntakeModule } from '../../intake/intake.module.js';
import { MappingModule } from '../../mapping/mapping.module.js';
import { FailuresModule } from '../../platform/failures/failures.module.js';
import { HealthModule } from '../../platform/health/health.module.js';
import { ProductSyncModule } from '../../product-sync/product-sync.module.js';
import { WriteBackModule } from '../../write-back/write-back.module.js';
import { AdminModule } from '../admin/admin.module.js';
import { AdminTokenGuard } from '../admin/admin-token.guard.js';
import { MetricsModule } from '../metrics/metrics.module.js';
import { RunsModule } from '../runs/runs.module.js';
import { AdminOverviewController } from './admin-overview.controller.js';
import { OverviewService } from './overview.service.js';
import { OverviewCharts } from './overview-charts.service.js';
import { OverviewMinute } from './overview-minute.entity.js';
import { OverviewMinutes } from './overview-minutes.repository.js';
import { OverviewRecorder } from './overview-recorder.service.js';
import { ShopStatesService } from './shop-states.service.js';

/** The shops' states and the numbers that matter now: `GET /admin/overview`, and the web view's overview. */
@Module({
  imports: [
    TypeOrmModule.forFeature([OverviewMinute]),
    AdminModule,
    CatalogModule,
    ShopifyModule,
    IntakeModule,
    MappingModule,
    FailuresModule,
    HealthModule,
    ProductSyncModule,
    WriteBackModule,
    MetricsModule,
    RunsModule,
  ],
  controllers: [AdminOverviewController],
  providers: [
    OverviewService,
    OverviewCharts,
    ShopStatesService,
    OverviewMinutes,
    OverviewRecorder,
    AdminTokenGuard,
  ],
  exports: [OverviewService, OverviewCharts, ShopStatesService],
})
export class OverviewModule {}
