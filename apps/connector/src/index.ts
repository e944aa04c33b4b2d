export {
  type Connector,
  type ConnectorOptions,
  createConnector,
  prepareConnector,
  startConnector,
} from './create-connector.js';
export { WEBHOOK_PATH } from './intake/webhook-subscriptions.js';
export { type ShopMappingState, ShopMappings } from './mapping/shop-mappings.service.js';
export type { ConnectorConfig, ShopConfig } from './platform/config/connector.config.js';
export { loadConnectorConfig } from './platform/config/connector.config.js';
export { Secret } from './platform/config/secret.js';
export {
  LOCAL_STACK_ADMIN_TOKEN,
  type LocalStackUrls,
  localStackEnvironment,
} from './platform/local-stack/local-stack-environment.js';
export { DriftScanner } from './product-sync/drift-scanner.service.js';
export { CollectionWalker } from './product-sync/scope/collection-walker.service.js';
export { SkuMapRepository } from './product-sync/sku-map/sku-map.repository.js';
export { SyncRecords, type SyncRecordView } from './product-sync/sync-records.repository.js';
