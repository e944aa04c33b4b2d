import type { EnvReader } from '#lib/config';
import type { ConnectorConfig } from './connector.config.js';

const DAY_MS = 86_400_000;
const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];

/** How the connector is operated: pauses, dependency checks, logs (docs/configuration.md, "Configuration"). */
export interface OperationsConfig {
  /** How often each replica reads the operators' sync pauses and the shared catalog breakers again (changed elsewhere). */
  pauseRefreshMs: number;
  /** How often the catalog's and Shopify's health is checked (cached between checks). */
  dependencyCheckIntervalMs: number;
  /** Pino log level (`fatal`, `error`, `warn`, `info`, `debug`, `trace`, `silent`). */
  logLevel: string;
  /** A sync backlog older than this makes its shop `failing` on the overview (docs/admin-api.md, "Shop states"). */
  backlogFailingMs: number;
  /**
   * A shop whose products with mapping gaps are more than this share (0 to 1) of its products is
   * `degraded` on the overview (docs/admin-api.md, "Shop states").
   */
  mappingGapDegradedShare: number;
  /**
   * Shops whose background checks run at once in this process, per kind (each boot's and
   * refresh's mapping check, the boot's webhook subscription check, the dependency checks).
   */
  shopCheckConcurrency: number;
  /**
   * Shops (and catalog accounts) with Prometheus series of their own in each per-shop metric;
   * the others are summed into one `_other` series (docs/operations.md, "Metrics").
   */
  metricsShopSeries: number;
}

/** What the retention job prunes, and when (docs/operations.md, "Retention"). */
export interface RetentionConfig {
  /** How often the retention job runs (once per interval across replicas). */
  intervalMs: number;
  /** Processed (or rejected) inbox deliveries older than this are deleted. */
  inboxMs: number;
  /** Succeeded jobs older than this are removed from the queues. */
  jobsMs: number;
  /** Dismissed or replayed failures resolved longer ago than this are deleted. */
  failuresMs: number;
  /** Sync run records finished longer ago than this are deleted. */
  syncRecordsMs: number;
  /** Resync runs that ended (done, cancelled) longer ago than this are deleted, with their listed products. */
  resyncRunsMs: number;
  /** Write-back push history entries (`write_back_push`) older than this are deleted. */
  pushHistoryMs: number;
  /** Finished enrichment polls and done write-back work (the outbox) older than this are deleted. */
  enrichmentRunsMs: number;
}

/** The operations variables, through the config's one reader. */
export function readOperations(read: EnvReader): OperationsConfig {
  const logLevel = read.string('CONNECTOR_LOG_LEVEL', 'info');
  if (!LOG_LEVELS.includes(logLevel)) {
    read.problems.push(`CONNECTOR_LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')}, got "${logLevel}"`);
  }
  return {
    pauseRefreshMs: read.int('CONNECTOR_SYNC_PAUSE_REFRESH_MS', 5_000, { min: 10 }),
    dependencyCheckIntervalMs: read.int('CONNECTOR_DEPENDENCY_CHECK_INTERVAL_MS', 60_000, { min: 10 }),
    logLevel,
    backlogFailingMs: read.int('CONNECTOR_OVERVIEW_BACKLOG_FAILING_MS', 300_000, { min: 1 }),
    mappingGapDegradedShare: read.number('CONNECTOR_MAPPING_GAP_DEGRADED_SHARE', 0.1, { min: 0, max: 1 }),
    shopCheckConcurrency: read.int('CONNECTOR_SHOP_CHECK_CONCURRENCY', 8, { min: 1, max: 100 }),
    metricsShopSeries: read.int('CONNECTOR_METRICS_SHOP_SERIES', 20, { min: 0, max: 100_000 }),
  };
}

/** The retention variables; ages in days (fractions allowed). */
export function readRetention(read: EnvReader): RetentionConfig {
  const days = (name: string, fallback: number) =>
    Math.round(read.number(name, fallback, { min: 0 }) * DAY_MS);
  return {
    intervalMs: read.int('CONNECTOR_RETENTION_INTERVAL_MS', 3_600_000, { min: 100 }),
    inboxMs: days('CONNECTOR_RETENTION_INBOX_DAYS', 30),
    jobsMs: days('CONNECTOR_RETENTION_JOBS_DAYS', 7),
    failuresMs: days('CONNECTOR_RETENTION_FAILURES_DAYS', 90),
    syncRecordsMs: days('CONNECTOR_RETENTION_SYNC_RECORDS_DAYS', 30),
    resyncRunsMs: days('CONNECTOR_RETENTION_RESYNC_RUNS_DAYS', 30),
    pushHistoryMs: days('CONNECTOR_RETENTION_PUSH_HISTORY_DAYS', 90),
    enrichmentRunsMs: days('CONNECTOR_RETENTION_ENRICHMENT_RUNS_DAYS', 7),
  };
}

/** Every secret value of the configuration, for the logger to scrub (never to print). */
export function configuredSecrets(config: ConnectorConfig): string[] {
  return [
    ...(config.admin.token === null ? [] : [config.admin.token.reveal()]),
    ...config.encryption.keys.map((key) => key.reveal()),
    ...config.shops.flatMap((shop) => [
      ...(shop.auth.kind === 'static' ? [shop.auth.accessToken.reveal()] : []),
      ...(shop.auth.app === null ? [] : [shop.auth.app.clientSecret.reveal()]),
      shop.catalog.apiKey.reveal(),
      ...shop.webhookSecrets.map((secret) => secret.reveal()),
    ]),
  ];
}
