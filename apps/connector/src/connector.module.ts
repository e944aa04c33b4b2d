import { type DynamicModule, Global, Module } from '@nestjs/common';
import { APP_FILTER, APP_PIPE } from '@nestjs/core';
import type { Clock } from '#lib/clock';
import { CatalogModule } from './clients/catalog/catalog.module.js';
import { ShopifyModule } from './clients/shopify/shopify.module.js';
import { SHOP_MAPPING_FILES, SHOPIFY_FETCH, SYNC_HOOKS } from './connector.tokens.js';
import { DriftModule } from './drift/drift.module.js';
import { IntakeModule } from './intake/intake.module.js';
import type { ShopMappingFiles } from './mapping/load-shop-mappings.js';
import { MappingModule } from './mapping/mapping.module.js';
import { MediaModule } from './media/media.module.js';
import { AdminModule } from './operations/admin/admin.module.js';
import { AdminUiModule } from './operations/admin-ui/admin-ui.module.js';
import { DocsModule } from './operations/docs/docs.module.js';
import { MetricsModule } from './operations/metrics/metrics.module.js';
import type { ConnectorConfig } from './platform/config/connector.config.js';
import { connectorConfigModule } from './platform/config/connector-config.module.js';
import { databaseModule } from './platform/database/database.module.js';
import { RetentionModule } from './platform/database/retention.module.js';
import { FailuresModule } from './platform/failures/failures.module.js';
import { HealthModule } from './platform/health/health.module.js';
import { ConnectorExceptionFilter } from './platform/http/connector-exception.filter.js';
import { connectorValidationPipe } from './platform/http/connector-validation.pipe.js';
import { queuesModule } from './platform/queues/queues.module.js';
import { ReportingModule } from './platform/reporting/reporting.module.js';
import { ProductSyncModule } from './product-sync/product-sync.module.js';
import { NO_SYNC_HOOKS, type SyncHooks } from './product-sync/sync-hooks.js';
import { ResyncModule } from './resync/resync.module.js';
import { InstallModule } from './shops/install/install.module.js';
import { shopsModule } from './shops/shops.module.js';
import { WriteBackModule } from './write-back/write-back.module.js';

/** What `createConnector` wires in besides the configuration (tests' seams). */
export interface ConnectorWiring {
  clock: Clock;
  shopifyFetch: typeof fetch | null;
  syncHooks: Partial<SyncHooks>;
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
    { provide: SYNC_HOOKS, useValue: { ...NO_SYNC_HOOKS, ...wiring.syncHooks } },
    { provide: SHOP_MAPPING_FILES, useValue: wiring.mappingFiles },
  ];
  return { module: ConnectorWiringModule, providers, exports: providers.map((p) => p.provide) };
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
      MediaModule,
      ResyncModule,
      DriftModule,
      WriteBackModule,
      HealthModule,
      // Operations: they may use any feature; nothing imports them.
      MetricsModule,
      AdminModule,
      AdminUiModule,
      DocsModule,
    ],
    providers: [
      { provide: APP_FILTER, useClass: ConnectorExceptionFilter },
      { provide: APP_PIPE, useFactory: connectorValidationPipe },
    ],
  };
}
