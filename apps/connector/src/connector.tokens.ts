/** Injection token of the `ConnectorConfig`, the one typed configuration object. */
export const CONNECTOR_CONFIG = Symbol('CONNECTOR_CONFIG');

/** The chosen queue backend and its BullMQ connection (`QueueConnection`). */
export const QUEUE_CONNECTION = Symbol('QUEUE_CONNECTION');

/** A `fetch` for every shop's Admin API calls (tests: the Shopify sandbox's `sandboxFetch`), or null. */
export const SHOPIFY_FETCH = Symbol('SHOPIFY_FETCH');

/** Test seams of the product sync job (`SyncHooks`); no-ops in production. */
export const SYNC_HOOKS = Symbol('SYNC_HOOKS');

/** Every shop's parsed mapping file (`ShopMappingFiles`), read by `createConnector` before the app. */
export const SHOP_MAPPING_FILES = Symbol('SHOP_MAPPING_FILES');
