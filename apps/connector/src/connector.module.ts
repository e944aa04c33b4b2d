import { type DynamicModule, Global, Module } from '@nestjs/common';
import { APP_FILTER, APP_PIPE } from '@nestjs/core';
import type { Clock } from '#lib/clock';
import { CatalogModule } from './clients/catalog/catalog.module.js';
import { ShopifyModule } from './clients/shopify/shopify.module.js';
import { SHOP_MAPPING_FILES, SHOPIFY_FETCH } from './connector.tokens.js';
import { DriftModule } from './drift/drift.module.js';
import { IntakeModule } from './intake/intake.module.js';
import type { ShopMappingFiles } from './mapping/load-shop-mappings.js';
import { MappingModule } from './mapping/mapping.module.js';
import { MediaModule } from './media/media.module.js';
import { MediaHooks } from './media/run/media-hooks.service.js';
import { AdminModule } from './operations/admin/admin.module.js';
import { AdminUiModule } from './operations/admin-ui/admin-ui.module.js';
import { AlertsModule } from './operations/alerts/alerts.module.js';
import { DocsModule } from './operations/docs/docs.module.js';
import { MetricsModule } from './operations/metrics/metrics.module.js';
import type { ConnectorConfig } from './platform/config/connector.config.js';
import { connectorConfigModule } from './platform/config/connector-config.module.js';
import { databaseModule } from './platform/database/database.module.js';
import { RetentionModule } from './platform/database/retention.module.js';
import { FailuresModule } from './platform/failures/failures.module.js';
import { HealthModule } from './platform/health/health.module.js';
import { AuthFailureLimitModule } from './platform/http/auth-failure-limit.module.js';
import { ConnectorExceptionFilter } from './platform/http/connector-exception.filter.js';
import { connectorValidationPipe } from './platform/http/connector-validation.pipe.js';
import { queuesModule } from './platform/queues/queues.module.js';
import { ReportingModule } from './platform/reporting/reporting.module.js';
import { ProductSyncModule } from './product-sync/product-sync.module.js';
import { SyncEvents } from './product-sync/sync-events.js';
import { ResyncModule } from './resync/resync.module.js';
import { ResyncProgress } from './resync/resync-progress.service.js';
import { InstallModule } from './shops/install/install.module.js';
import { shopsModule } from './shops/shops.module.js';
import { MerchantEdits } from './write-back/push/merchant-edits.service.js';
import { WriteBackModule } from './write-back/write-back.module.js';

/** What `createConnector` wires in besides the configuration (the clock, Shopify's fetch, the mapping files). */
export interface ConnectorWiring {
  clock: Clock;
  shopifyFetch: typeof fetch | null;
  /** Every shop's mapping file, parsed before the app is built. */
  mappingFiles: ShopMappingFiles;
}

/** The composition root's seams (`connector.tokens.ts`), global so each feature injects its own. */
@Global()
@Module({})
export class ConnectorWiringModule {}

function wiringModule(wiring: ConnectorWiring): DynamicModule {
  const providers = [
    { provide: SHOPIFY_FETCH, useValue: wiring.shopifyFetch },
    { provide: SHOP_MAPPING_FILES, useValue: wiring.mappingFiles },
  ];
  return { module: ConnectorWiringModule, providers, exports: providers.map((p) => p.provide) };
}

/** What follows each product sync (`SyncEvents`), global so the sync job injects it. */
@Global()
@Module({})
export class AfterSyncModule {}

/**
 * The after-sync listeners, in the order they run after each product sync (inside its lock): the
 * product's media job, the resync runs' progress (and whether a run waits for the product's read),
 * the merchant's edits of written-back values. The sync may not import these later stages, so
 * they are listed here, where the app is assembled.
 */
function afterSyncModule(): DynamicModule {
  return {
    module: AfterSyncModule,
    imports: [MediaModule, ResyncModule, WriteBackModule],
    providers: [
      {
        provide: SyncEvents,
        inject: [MediaHooks, ResyncProgress, MerchantEdits],
        useFactory: (media: MediaHooks, progress: ResyncProgress, edits: MerchantEdits) =>
          new SyncEvents([media, progress, edits]),
      },
    ],
    exports: [SyncEvents],
  };
}

/**
 * The connector, its rooms in the order data flows through them (README, "Layout"): platform,
 * shops, clients, mapping, intake, product-sync, then media, write-back and resync, operations.
 */
@Module({})
export class ConnectorModule {}

/** Why a function: the configuration and the wiring are given to `createConnector`, once per app. */
export function connectorModule(config: ConnectorConfig, wiring: ConnectorWiring): DynamicModule {
  return {
    module: ConnectorModule,
    imports: [
      connectorConfigModule(config, wiring.clock),
      wiringModule(wiring),
      AuthFailureLimitModule,
      databaseModule(config),
      ReportingModule,
      RetentionModule,
      queuesModule(config),
      shopsModule(config.shops),
      InstallModule,
      ShopifyModule,
      CatalogModule,
      FailuresModule,
      MappingModule,
      IntakeModule,
      ProductSyncModule,
      afterSyncModule(),
      MediaModule,
      ResyncModule,
      DriftModule,
      WriteBackModule,
      HealthModule,
      // Operations: they may use any feature; nothing imports them.
      MetricsModule,
      AdminModule,
      AdminUiModule,
      AlertsModule,
      DocsModule,
    ],
    providers: [
      { provide: APP_FILTER, useClass: ConnectorExceptionFilter },
      { provide: APP_PIPE, useFactory: connectorValidationPipe },
    ],
  };
}
