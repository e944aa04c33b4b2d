import { type Env, loadConfig } from '#lib/config';
import { type AdminConfig, readAdmin } from './admin-config.js';
import { type AlertsConfig, readAlerts } from './alerts-config.js';
import { type EncryptionConfig, readEncryption } from './encryption-config.js';
import { type EnrichmentConfig, readEnrichment } from './enrichment-config.js';
import {
  type CatalogConfig,
  type DatabaseConfig,
  type HttpConfig,
  type QueueConfig,
  readCatalog,
  readDatabase,
  readHttp,
  readQueue,
  readShopify,
  type ShopifyConfig,
} from './infrastructure-config.js';
import { type InstallConfig, readInstalls } from './install-config.js';
import { type MediaConfig, readMedia } from './media-config.js';
import {
  type OperationsConfig,
  type RetentionConfig,
  readOperations,
  readRetention,
} from './operations-config.js';
import { readSecretFile, type SecretFileReader } from './secret-reader.js';
import { readShopDefaults, readShops, type ShopConfig } from './shop-config.js';
import {
  type InboxConfig,
  type ReconcileConfig,
  type ResyncConfig,
  readInbox,
  readReconcile,
  readResync,
  readSync,
  type SyncConfig,
} from './sync-config.js';

export { ADMIN_TOKEN_MIN_LENGTH } from './admin-config.js';
export type { ShopAuth, ShopAuthKind } from './shop-auth-config.js';
export type { ShopConfig } from './shop-config.js';

/**
 * The connector's whole configuration, validated once at boot (docs/configuration.md, "Configuration"). Each
 * section has its reader beside this file (`infrastructure-config.ts`, `sync-config.ts`,
 * `media-config.ts`, `enrichment-config.ts`, `admin-config.ts`, `operations-config.ts`,
 * `alerts-config.ts`, `shop-config.ts`).
 */
export interface ConnectorConfig {
  http: HttpConfig;
  database: DatabaseConfig;
  queue: QueueConfig;
  shops: ShopConfig[];
  installs: InstallConfig;
  shopify: ShopifyConfig;
  encryption: EncryptionConfig;
  sync: SyncConfig;
  inbox: InboxConfig;
  catalog: CatalogConfig;
  media: MediaConfig;
  resync: ResyncConfig;
  reconcile: ReconcileConfig;
  enrichment: EnrichmentConfig;
  admin: AdminConfig;
  operations: OperationsConfig;
  retention: RetentionConfig;
  alerts: AlertsConfig;
}

/** Reads and validates the environment; throws a `ConfigError` naming every bad variable. */
export function loadConnectorConfig(env: Env, readFile: SecretFileReader = readSecretFile): ConnectorConfig {
  return loadConfig(env, (read) => {
    // The order of the reads is the order of the problems reported.
    const catalog = readCatalog(read);
    const sync = readSync(read, catalog.ratePerSecond);
    const enrichment = readEnrichment(read);
    // Each sync and push job holds a connection while it works: the default pool has room for them.
    const database = readDatabase(read, Math.max(10, sync.concurrency + enrichment.pushConcurrency + 4));
    const queue = readQueue(read, database);
    if (sync.concurrency + 2 > database.poolSize) {
      read.problems.push(
        `CONNECTOR_DATABASE_POOL_SIZE (${database.poolSize}) must exceed CONNECTOR_SYNC_CONCURRENCY (${sync.concurrency}) by at least 2`,
      );
    }
    // Each sync and push job holds its product lock's connection while it works.
    if (
      sync.concurrency + 2 <= database.poolSize &&
      sync.concurrency + enrichment.pushConcurrency + 2 > database.poolSize
    ) {
      read.problems.push(
        `CONNECTOR_DATABASE_POOL_SIZE (${database.poolSize}) must exceed CONNECTOR_SYNC_CONCURRENCY plus CONNECTOR_ENRICHMENT_PUSH_CONCURRENCY (${sync.concurrency + enrichment.pushConcurrency}) by at least 2`,
      );
    }
    const defaults = readShopDefaults(read, env, readFile);
    const shops = readShops(read, env, readFile, defaults);
    const http = readHttp(read);
    const installs = readInstalls(read, defaults, http.publicUrl);
    if (shops.length === 0 && !installs.open && read.problems.length === 0) {
      read.problems.push(
        'No shop to serve: list them in CONNECTOR_SHOPS, or let shops install the app (CONNECTOR_SHOPIFY_INSTALLS=open)',
      );
    }
    return {
      http,
      database,
      queue,
      shops,
      installs,
      shopify: readShopify(read),
      encryption: readEncryption(read, env, readFile, shops, installs.open),
      sync,
      inbox: readInbox(read),
      catalog,
      media: readMedia(read),
      resync: readResync(read),
      reconcile: readReconcile(read),
      enrichment,
      admin: readAdmin(read, env, readFile),
      operations: readOperations(read),
      retention: readRetention(read),
      alerts: readAlerts(read),
    };
  });
}
