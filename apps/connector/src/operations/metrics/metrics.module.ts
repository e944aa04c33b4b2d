import { Module } from '@nestjs/common';
import { APP_INTERCEPTOR, DiscoveryModule } from '@nestjs/core';
import { CatalogModule } from '../../clients/catalog/catalog.module.js';
import { ShopifyModule } from '../../clients/shopify/shopify.module.js';
import { DriftModule } from '../../drift/drift.module.js';
import { FailuresModule } from '../../platform/failures/failures.module.js';
import { CatalogCallWindow } from './catalog-call-window.service.js';
import { ConnectionGauges } from './connection-gauges.service.js';
import { ConnectorMetrics } from './connector-metrics.service.js';
import { DependencyProbes } from './dependency-probes.service.js';
import { DriftGauges } from './drift-gauges.service.js';
import { JobMetrics } from './job-metrics.service.js';
import { MetricsController } from './metrics.controller.js';
import { ObservationMetrics } from './observation-metrics.service.js';
import { ShopSeries } from './shop-series.service.js';
import { StateGauges } from './state-gauges.service.js';
import { WebhookMetricsInterceptor } from './webhook-metrics.interceptor.js';

/** `/metrics`: this instance's registry, the webhook and job counters, the gauges of state. */
@Module({
  imports: [DiscoveryModule, FailuresModule, CatalogModule, ShopifyModule, DriftModule],
  controllers: [MetricsController],
  providers: [
    ConnectorMetrics,
    ShopSeries,
    StateGauges,
    ConnectionGauges,
    DriftGauges,
    JobMetrics,
    ObservationMetrics,
    CatalogCallWindow,
    DependencyProbes,
    { provide: APP_INTERCEPTOR, useClass: WebhookMetricsInterceptor },
  ],
  exports: [ConnectorMetrics, CatalogCallWindow, ShopSeries],
})
export class MetricsModule {}
