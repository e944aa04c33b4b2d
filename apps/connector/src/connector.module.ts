import { type DynamicModule, Module } from '@nestjs/common';
import { APP_FILTER } from '@nestjs/core';
import type { Clock } from '#lib/clock';
import { CatalogModule } from './clients/catalog/catalog.module.js';
import { ShopifyModule } from './clients/shopify/shopify.module.js';
import { IntakeModule } from './intake/intake.module.js';
import type { ShopMappingFiles } from './mapping/load-shop-mappings.js';
import { mappingModule } from './mapping/mapping.module.js';
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
import { OperationsSeamsModule } from './platform/health/operations-seams.module.js';
import { ConnectorExceptionFilter } from './platform/http/connector-exception.filter.js';
import { queuesModule } from './platform/queues/queues.module.js';
import { productSyncModule } from './product-sync/product-sync.module.js';
import type { SyncHooks } from './product-sync/sync-hooks.js';
import { ResyncModule } from './resync/resync.module.js';
import { writeBackModule } from './write-back/write-back.module.js';

/** What `createConnector` wires in besides the configuration (tests' seams). */
export interface ConnectorWiring {
  clock: Clock;
  shopifyFetch: typeof fetch | null;
  syncHooks: Partial<SyncHooks>;
  /** Every shop's mapping file, parsed before the app is built. */
  mappingFiles: ShopMappingFiles;
}

/**
 * The connector, one module per stage of the data flow: webhooks -> inbox -> sync (-> sku-map) -> media,
 * with catalog, shopify and failures beside them; config, database, queues and http below.
 */
@Module({})
export class ConnectorModule {}

export function connectorModule(config: ConnectorConfig, wiring: ConnectorWiring): DynamicModule {
  // One instance of each, shared by the stages that need them.
  const mapping = mappingModule(wiring.mappingFiles);
  return {
    module: ConnectorModule,
    imports: [
      connectorConfigModule(config, wiring.clock, wiring.shopifyFetch),
      databaseModule(config),
      OperationsSeamsModule,
      RetentionModule,
      queuesModule(config),
      ShopifyModule,
      CatalogModule,
      FailuresModule,
      IntakeModule,
      productSyncModule({ hooks: wiring.syncHooks, mapping }),
      MediaModule,
      ResyncModule,
      writeBackModule(mapping),
      HealthModule,
      // Operations: they may use any stage; nothing imports them.
      MetricsModule,
      AdminModule,
      AdminUiModule,
      DocsModule,
    ],
    providers: [{ provide: APP_FILTER, useClass: ConnectorExceptionFilter }],
  };
}
