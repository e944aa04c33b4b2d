import { type DynamicModule, Global, Module } from '@nestjs/common';
import { Clock } from '#lib/clock';
import type { ConnectorConfig } from './connector.config.js';
import { settingsProviders } from './settings.js';

/**
 * Makes each configuration slice (`SyncSettings`, `MediaSettings`, …) and the clock injectable
 * everywhere: a class asks for the slices it reads, by type.
 */
@Global()
@Module({})
export class ConnectorConfigModule {}

/** Why a function: the configuration is validated before the app is built (`createConnector`). */
export function connectorConfigModule(config: ConnectorConfig, clock: Clock): DynamicModule {
  const providers = [...settingsProviders(config), { provide: Clock, useValue: clock }];
  return { module: ConnectorConfigModule, providers, exports: providers.map((p) => p.provide) };
}
