export type { ConnectorConfig, ShopConfig } from './config/connector.config.js';
export { findShop, loadConnectorConfig } from './config/connector.config.js';
export { Secret } from './config/secret.js';
export { type Connector, type ConnectorOptions, createConnector } from './create-connector.js';
export { type LocalStackUrls, localStackEnvironment } from './local-stack/local-stack-environment.js';
export { type ShopMappingState, ShopMappings } from './mapping/shop-mappings.js';
export type { SyncHooks } from './sync/sync-hooks.js';
export { WEBHOOK_PATH } from './webhooks/webhook-subscriptions.js';
