import { type DynamicModule, Global, Module } from '@nestjs/common';
import { Clock } from '#lib/clock';
import { CONNECTOR_CONFIG, SHOPIFY_FETCH } from '../../connector.tokens.js';
import type { ConnectorConfig } from './connector.config.js';

/**
 * Makes the configuration, the clock and the Admin API fetch (null: Shopify itself) injectable
 * everywhere: the only global providers.
 */
@Global()
@Module({})
export class ConnectorConfigModule {}

export function connectorConfigModule(
  config: ConnectorConfig,
  clock: Clock,
  shopifyFetch: typeof fetch | null,
): DynamicModule {
  return {
    module: ConnectorConfigModule,
    providers: [
      { provide: CONNECTOR_CONFIG, useValue: config },
      { provide: Clock, useValue: clock },
      { provide: SHOPIFY_FETCH, useValue: shopifyFetch },
    ],
    exports: [CONNECTOR_CONFIG, Clock, SHOPIFY_FETCH],
  };
}
