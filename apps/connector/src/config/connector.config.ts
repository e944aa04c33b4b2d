import { type Env, type EnvReader, loadConfig } from '#lib/config';
import type { Secret } from './secret.js';
import { readSecret, readSecretFile, type SecretFileReader } from './secret-reader.js';
import { readShops, type ShopConfig } from './shop-config.js';

export type { ShopConfig } from './shop-config.js';

/** The connector's whole configuration, validated once at boot (README, "Configuration"). */
export interface ConnectorConfig {
  http: {
    port: number;
    host: string;
    /** Largest webhook body kept whole, in bytes (larger signed ones: README, "Intake"). */
    webhookBodyLimitBytes: number;
    /**
     * Where Shopify reaches this connector; when set, the connector keeps each shop's webhook
     * subscriptions pointed at `<publicUrl>/webhooks/shopify` (created idempotently at boot).
     */
    publicUrl: string | null;
  };
  database: {
    /** PostgreSQL URL; null means main.ts starts an embedded PostgreSQL. */
    url: string | null;
    /** Schema of the connector's tables (created by the migrations). */
    schema: string;
    poolSize: number;
    /** Connect and statement time-out of the connector's own queries. */
    timeoutMs: number;
  };
  queue: {
    /** Redis URL; null puts the queues on PostgreSQL (BullMQ's PostgreSQL backend). */
    redisUrl: string | null;
    /** Redis key prefix, or PostgreSQL schema, of the queues. */
    namespace: string;
  };
  shops: ShopConfig[];
  shopify: {
    /** Sends every Admin API call here instead of `https://<shop>` (the Shopify sandbox). */
    adminOrigin: string | null;
    /** How often a `THROTTLED` answer is waited out before the call fails (retryable). */
    throttleRetries: number;
  };
  sync: {
    /** A delivery's job waits this long, so a burst of deliveries becomes one run. */
    debounceMs: number;
    concurrency: number;
    attempts: number;
    /** First retry delay; doubles at each attempt. */
    backoffMs: number;
    /** Delay of a job whose product is being synced by another job. */
    lockRetryMs: number;
    /** How often a shop's mapping not yet checked (catalog unreachable) or refused is checked again. */
    mappingRecheckMs: number;
  };
  inbox: {
    sweepIntervalMs: number;
    /** Deliveries still unprocessed after this long are enqueued again by the sweeper. */
    sweepAfterMs: number;
  };
  catalog: {
    ratePerSecond: number;
    burst: number;
    breakerCooldownMs: number;
    breakerAuthCooldownMs: number;
    /** How long a job for a shop whose catalog key is paused waits before looking again. */
    pauseRecheckMs: number;
  };
  admin: {
    /** Bearer token of `/admin`; null: every admin route answers 503 `admin_disabled` (never open). */
    token: Secret | null;
  };
}

/** Shortest admin token accepted: a guessable token guards nothing. */
export const ADMIN_TOKEN_MIN_LENGTH = 16;

const SCHEMA_NAME = /^[a-z_][a-z0-9_]{0,62}$/;

/** Reads and validates the environment; throws a `ConfigError` naming every bad variable. */
export function loadConnectorConfig(env: Env, readFile: SecretFileReader = readSecretFile): ConnectorConfig {
  return loadConfig(env, (read) => {
    const schema = (name: string, fallback: string) => {
      const value = read.string(name, fallback);
      if (!SCHEMA_NAME.test(value)) {
        read.problems.push(`${name} must be a lower-case SQL identifier, got "${value}"`);
      }
      return value;
    };
    const optionalUrl = (name: string) => {
      const value = read.optionalString(name);
      return value === undefined ? null : read.url(name).replace(/\/+$/, '');
    };
    const database = {
      url: optionalUrl('DATABASE_URL'),
      schema: schema('CONNECTOR_DATABASE_SCHEMA', 'connector'),
      poolSize: read.int('CONNECTOR_DATABASE_POOL_SIZE', 10, { min: 2, max: 200 }),
      timeoutMs: read.int('CONNECTOR_DATABASE_TIMEOUT_MS', 5_000, { min: 100 }),
    };
    const queue = {
      redisUrl: optionalUrl('REDIS_URL'),
      namespace: schema('CONNECTOR_QUEUE_NAMESPACE', 'connector_queue'),
    };
    if (queue.redisUrl === null && queue.namespace === database.schema) {
      read.problems.push('CONNECTOR_QUEUE_NAMESPACE must differ from CONNECTOR_DATABASE_SCHEMA');
    }
    const sync = {
      debounceMs: read.int('CONNECTOR_SYNC_DEBOUNCE_MS', 1_000, { min: 0 }),
      concurrency: read.int('CONNECTOR_SYNC_CONCURRENCY', 4, { min: 1, max: 100 }),
      attempts: read.int('CONNECTOR_SYNC_ATTEMPTS', 8, { min: 1, max: 100 }),
      backoffMs: read.int('CONNECTOR_SYNC_BACKOFF_MS', 2_000, { min: 1 }),
      lockRetryMs: read.int('CONNECTOR_SYNC_LOCK_RETRY_MS', 500, { min: 1 }),
      mappingRecheckMs: read.int('CONNECTOR_MAPPING_RECHECK_MS', 30_000, { min: 10 }),
    };
    if (sync.concurrency + 2 > database.poolSize) {
      read.problems.push(
        `CONNECTOR_DATABASE_POOL_SIZE (${database.poolSize}) must exceed CONNECTOR_SYNC_CONCURRENCY (${sync.concurrency}) by at least 2`,
      );
    }
    return {
      http: {
        port: read.port('PORT', 3000),
        host: read.string('CONNECTOR_HOST', '127.0.0.1'),
        webhookBodyLimitBytes: read.int('CONNECTOR_WEBHOOK_BODY_LIMIT_BYTES', 4 * 1024 * 1024, {
          min: 1024,
        }),
        publicUrl: optionalUrl('CONNECTOR_PUBLIC_URL'),
      },
      database,
      queue,
      shops: readShops(read, env, readFile),
      shopify: {
        adminOrigin: optionalUrl('CONNECTOR_SHOPIFY_ADMIN_ORIGIN'),
        throttleRetries: read.int('CONNECTOR_SHOPIFY_THROTTLE_RETRIES', 5, { min: 0, max: 50 }),
      },
      sync,
      inbox: {
        sweepIntervalMs: read.int('CONNECTOR_INBOX_SWEEP_INTERVAL_MS', 60_000, { min: 100 }),
        sweepAfterMs: read.int('CONNECTOR_INBOX_SWEEP_AFTER_MS', 300_000, { min: 0 }),
      },
      catalog: {
        ratePerSecond: read.number('CONNECTOR_CATALOG_RATE_PER_SECOND', 4, { min: 0.01 }),
        burst: read.int('CONNECTOR_CATALOG_RATE_BURST', 1, { min: 1 }),
        breakerCooldownMs: read.int('CONNECTOR_CATALOG_BREAKER_COOLDOWN_MS', 30_000, { min: 1 }),
        breakerAuthCooldownMs: read.int('CONNECTOR_CATALOG_BREAKER_AUTH_COOLDOWN_MS', 60_000, { min: 1 }),
        pauseRecheckMs: read.int('CONNECTOR_CATALOG_PAUSE_RECHECK_MS', 30_000, { min: 1 }),
      },
      admin: { token: readAdminToken(read, env, readFile) },
    };
  });
}

/** The configured shop with this domain, if any. */
export function findShop(config: ConnectorConfig, domain: string): ShopConfig | undefined {
  const wanted = domain.toLowerCase();
  return config.shops.find((shop) => shop.domain === wanted);
}

/** `CONNECTOR_ADMIN_TOKEN` (or `_FILE`): optional, but never shorter than `ADMIN_TOKEN_MIN_LENGTH`. */
function readAdminToken(read: EnvReader, env: Env, readFile: SecretFileReader): Secret | null {
  const token = readSecret(read, env, 'CONNECTOR_ADMIN_TOKEN', readFile) ?? null;
  if (token !== null && token.reveal().length < ADMIN_TOKEN_MIN_LENGTH) {
    read.problems.push(`CONNECTOR_ADMIN_TOKEN must be at least ${ADMIN_TOKEN_MIN_LENGTH} characters long`);
  }
  return token;
}
