import type { EnvReader } from '#lib/config';
import { type AdminListenerConfig, readAdminListener, readTrustedNetworks } from './listener-config.js';

const SCHEMA_NAME = /^[a-z_][a-z0-9_]{0,62}$/;

/** The connector's HTTP server. */
export interface HttpConfig {
  port: number;
  host: string;
  /** Largest webhook body kept whole, in bytes (larger signed ones: docs/webhooks-and-lifecycle.md, "Intake"). */
  webhookBodyLimitBytes: number;
  /**
   * Where Shopify reaches this connector; when set, the connector keeps each shop's webhook
   * subscriptions pointed at `<publicUrl>/webhooks/shopify` (created idempotently at boot).
   */
  publicUrl: string | null;
  /**
   * The private listener (`CONNECTOR_ADMIN_PORT`): the admin API, the web view, `/metrics` and
   * `/docs` there, refused on `port`. Null: one port, the private routes refused to requests
   * from outside (docs/operations.md, "Listeners").
   */
  adminListener: AdminListenerConfig | null;
  /** Networks counted as inside: loopback, private ranges and `CONNECTOR_ADMIN_TRUSTED_NETWORKS`. */
  trustedNetworks: string[];
}

/** The connector's PostgreSQL. */
export interface DatabaseConfig {
  /** PostgreSQL URL; null means main.ts starts an embedded PostgreSQL. */
  url: string | null;
  /** Schema of the connector's tables (created by the migrations). */
  schema: string;
  poolSize: number;
  /** Connect and statement time-out of the connector's own queries. */
  timeoutMs: number;
}

/** Where the job queues live. */
export interface QueueConfig {
  /** Redis URL; null puts the queues on PostgreSQL (BullMQ's PostgreSQL backend). */
  redisUrl: string | null;
  /** Redis key prefix, or PostgreSQL schema, of the queues. */
  namespace: string;
  /** How often the job schedulers' existence is checked (a queue backend that lost its data). */
  checkIntervalMs: number;
  /** A running job's lock, and the interval of the stalled-job check (BullMQ's default: 30 s). */
  lockMs: number;
  /**
   * PostgreSQL queues: the connections every queue and worker share for their queries (each
   * worker has its LISTEN connection besides). Unused with Redis.
   */
  poolSize: number;
}

/** How the Shopify Admin API is called. */
export interface ShopifyConfig {
  /** Sends every Admin API call here instead of `https://<shop>` (the Shopify sandbox). */
  adminOrigin: string | null;
  /** How often a `THROTTLED` answer is waited out before the call fails (retryable). */
  throttleRetries: number;
  /** An expiring token is refreshed this long before it expires (at most a fifth of its life). */
  tokenRefreshMarginMs: number;
  /** Plus a random part up to this (at most a tenth of its life): replicas do not refresh together. */
  tokenRefreshJitterMs: number;
  /** How long a job of a shop in `needs_reauth` waits before looking again (delayed, not failed). */
  reauthRecheckMs: number;
  /** The access scopes an install asks the merchant for (`installed` shops). */
  scopes: string[];
  /** How often the scheduled check recreates missing webhook subscriptions (with `CONNECTOR_PUBLIC_URL`). */
  subscriptionCheckMs: number;
}

/** How the catalog is called: rate, breaker, pauses. */
export interface CatalogConfig {
  ratePerSecond: number;
  burst: number;
  breakerCooldownMs: number;
  breakerAuthCooldownMs: number;
  /** How long a job for a shop whose catalog key is paused waits before looking again. */
  pauseRecheckMs: number;
}

/** A lower-case SQL identifier variable (a schema name); a problem when it is not one. */
function readSchemaName(read: EnvReader, name: string, fallback: string): string {
  const value = read.string(name, fallback);
  if (!SCHEMA_NAME.test(value)) {
    read.problems.push(`${name} must be a lower-case SQL identifier, got "${value}"`);
  }
  return value;
}

/** An optional URL variable without its trailing slashes; null when unset. */
export function readOptionalUrl(read: EnvReader, name: string): string | null {
  const value = read.optionalString(name);
  return value === undefined ? null : read.url(name).replace(/\/+$/, '');
}

/** The HTTP server's variables (`PORT`, `CONNECTOR_HOST`, `CONNECTOR_ADMIN_PORT`, ...). */
export function readHttp(read: EnvReader): HttpConfig {
  const port = read.port('PORT', 3000);
  return {
    port,
    host: read.string('CONNECTOR_HOST', '127.0.0.1'),
    webhookBodyLimitBytes: read.int('CONNECTOR_WEBHOOK_BODY_LIMIT_BYTES', 4 * 1024 * 1024, {
      min: 1024,
    }),
    publicUrl: readOptionalUrl(read, 'CONNECTOR_PUBLIC_URL'),
    adminListener: readAdminListener(read, port),
    trustedNetworks: readTrustedNetworks(read),
  };
}

/** `DATABASE_URL` and the `CONNECTOR_DATABASE_*` variables (the pool's default: enough for the workers). */
export function readDatabase(read: EnvReader, defaultPoolSize = 10): DatabaseConfig {
  return {
    url: readOptionalUrl(read, 'DATABASE_URL'),
    schema: readSchemaName(read, 'CONNECTOR_DATABASE_SCHEMA', 'connector'),
    poolSize: read.int('CONNECTOR_DATABASE_POOL_SIZE', defaultPoolSize, { min: 2, max: 200 }),
    timeoutMs: read.int('CONNECTOR_DATABASE_TIMEOUT_MS', 5_000, { min: 100 }),
  };
}

/** `REDIS_URL` and `CONNECTOR_QUEUE_NAMESPACE` (which must differ from the tables' schema on PostgreSQL). */
export function readQueue(read: EnvReader, database: DatabaseConfig): QueueConfig {
  const queue = {
    redisUrl: readOptionalUrl(read, 'REDIS_URL'),
    namespace: readSchemaName(read, 'CONNECTOR_QUEUE_NAMESPACE', 'connector_queue'),
    checkIntervalMs: read.int('CONNECTOR_QUEUE_CHECK_INTERVAL_MS', 15_000, { min: 100 }),
    lockMs: read.int('CONNECTOR_QUEUE_LOCK_MS', 30_000, { min: 1_000 }),
    poolSize: read.int('CONNECTOR_QUEUE_POOL_SIZE', 10, { min: 2, max: 100 }),
  };
  if (queue.redisUrl === null && queue.namespace === database.schema) {
    read.problems.push('CONNECTOR_QUEUE_NAMESPACE must differ from CONNECTOR_DATABASE_SCHEMA');
  }
  return queue;
}

/** The `CONNECTOR_SHOPIFY_*` variables. */
export function readShopify(read: EnvReader): ShopifyConfig {
  return {
    adminOrigin: readOptionalUrl(read, 'CONNECTOR_SHOPIFY_ADMIN_ORIGIN'),
    throttleRetries: read.int('CONNECTOR_SHOPIFY_THROTTLE_RETRIES', 5, { min: 0, max: 50 }),
    tokenRefreshMarginMs: read.int('CONNECTOR_SHOPIFY_TOKEN_REFRESH_MARGIN_MS', 300_000, { min: 0 }),
    tokenRefreshJitterMs: read.int('CONNECTOR_SHOPIFY_TOKEN_REFRESH_JITTER_MS', 60_000, { min: 0 }),
    reauthRecheckMs: read.int('CONNECTOR_SHOPIFY_REAUTH_RECHECK_MS', 30_000, { min: 1 }),
    scopes: read
      .string('CONNECTOR_SHOPIFY_SCOPES', 'read_products,write_products,read_inventory')
      .split(',')
      .map((scope) => scope.trim())
      .filter((scope) => scope !== ''),
    subscriptionCheckMs: read.int('CONNECTOR_SHOPIFY_SUBSCRIPTION_CHECK_MS', 3_600_000, { min: 100 }),
  };
}

/** The `CONNECTOR_CATALOG_*` variables (rate, burst, breaker, pauses). */
export function readCatalog(read: EnvReader): CatalogConfig {
  return {
    ratePerSecond: read.number('CONNECTOR_CATALOG_RATE_PER_SECOND', 4, { min: 0.01 }),
    // 2, as the catalog client's DEFAULT_RATE_BUDGET: with 1 every late grant (the store's round
    // trip, a busy event loop) is a slot lost for good (libs/catalog-client/README.md, "Why burst 2").
    burst: read.int('CONNECTOR_CATALOG_RATE_BURST', 2, { min: 1 }),
    breakerCooldownMs: read.int('CONNECTOR_CATALOG_BREAKER_COOLDOWN_MS', 30_000, { min: 1 }),
    breakerAuthCooldownMs: read.int('CONNECTOR_CATALOG_BREAKER_AUTH_COOLDOWN_MS', 60_000, { min: 1 }),
    pauseRecheckMs: read.int('CONNECTOR_CATALOG_PAUSE_RECHECK_MS', 30_000, { min: 1 }),
  };
}
