import type { EnvReader } from '#lib/config';

const STATUSES = ['ACTIVE', 'UNLISTED', 'DRAFT', 'ARCHIVED'] as const;
const LINK_MATCHES = ['sku:supplierSku', 'sku:gtin', 'barcode:supplierSku', 'barcode:gtin'] as const;

/**
 * Default longest wait of a product's sync under deliveries that keep coming. Long enough that a
 * merchant's burst of edits (a bulk editor save, an import, an app's price run) ends before it and
 * is one run; short enough that a product edited without pause (an app adjusting stock every few
 * seconds) is still read and synced twice a minute: one canonical read (about 760 points
 * requested) per 30 s is about 25 points/s, a quarter of a standard shop's restore rate (100/s).
 */
const DEBOUNCE_MAX_MS = 30_000;

/**
 * Default delay of a sync whose product another job holds (a sync run, a write-back push: tens to
 * hundreds of ms). It was 500 ms, the one 500 ms clock on a delivery's path: an edit that met a
 * busy product waited half a second more (issue 44's 1.5 s / 2.0 s steps). A retry is one job
 * move and one lock attempt, so a tenth of a second costs little while it lasts.
 */
export const LOCK_RETRY_MS = 100;

/** How products are synced (docs/configuration.md, "Configuration"). */
export interface SyncConfig {
  /**
   * A delivery for a product with no job in flight and no delivery within this period runs at
   * once (the leading edge, `SyncEnqueuer`); the deliveries that follow within it make one
   * trailing job, which waits this long after the product's last delivery: each delivery
   * restarts the wait (`syncProductJobOptions`).
   */
  debounceMs: number;
  /**
   * Whether a delivery may lead (run at once when its product is quiet). Off: every delivery's job
   * waits `debounceMs`, as before issue 44 (tests that need a job held in its debounce).
   */
  leadingEdge: boolean;
  /**
   * The longest a waiting job is put off by deliveries that keep coming: a product edited without
   * pause still syncs once per this period (counted from its job's first delivery).
   */
  debounceMaxMs: number;
  concurrency: number;
  attempts: number;
  /** First retry delay; doubles at each attempt. */
  backoffMs: number;
  /** Delay of a job whose product is being synced by another job. */
  lockRetryMs: number;
  /** How often a shop's mapping not yet checked (catalog unreachable) or refused is checked again. */
  mappingRecheckMs: number;
  /**
   * How often a checked mapping is checked again against the account's definitions (a DROPDOWN
   * value added in the portal): records built on what changed are resynced (drift).
   */
  mappingRefreshMs: number;
  /** A `products/delete` waits this long before the catalog records are deleted (0: at once). */
  deleteGraceMs: number;
  /** Shopify statuses whose products are synced (default ACTIVE and UNLISTED). */
  statuses: ReadonlyArray<'ACTIVE' | 'UNLISTED' | 'DRAFT' | 'ARCHIVED'>;
  /** A synced product moved to another status (draft, archived): `keep` its records, or `delete` them. */
  leavingStatuses: 'keep' | 'delete';
  /**
   * A product over the catalog's 200 variants per parent: `split` into one parent per first-option
   * value (chunked by 200), or `fail` (a permanent failure, nothing synced: before issue 30).
   */
  largeProducts: 'split' | 'fail';
  /**
   * How often each scoped collection's members are compared with what was synced: putting a
   * product in or out of a collection changes no product, and its webhook may be missed.
   */
  scopeWalkIntervalMs: number;
}

/** The webhook inbox: its enqueue batches and its sweeper. */
export interface InboxConfig {
  sweepIntervalMs: number;
  /** Deliveries still unprocessed after this long are enqueued again by the sweeper. */
  sweepAfterMs: number;
  /**
   * Stored deliveries are enqueued in batches, one every this many ms at most (or sooner when
   * a batch fills): the webhook's answer waits for the insert only. 100 ms by default: far below
   * the sync's debounce, and long enough that a burst's deliveries of one product are added once
   * (every add reads the product's job and restarts its wait, on the answers' event loop).
   */
  enqueueFlushMs: number;
}

/** Whole-shop resyncs and linking. */
export interface ResyncConfig {
  /** Shopify products per page of a whole-shop walk (one job per page; the run's cursor moves per page). */
  pageSize: number;
  /**
   * A whole-shop read of a shop with more products than this goes through a bulk query (pages
   * at or below it). Learned from the first id page, so at most 249.
   */
  bulkThreshold: number;
  /** How often a running bulk query's state is asked for. */
  bulkPollMs: number;
  /** The default match key of linking: which Shopify field against which catalog field. */
  linkMatch: { shopify: 'sku' | 'barcode'; catalog: 'supplierSku' | 'gtin' };
}

/** The scheduled reconciliation. */
export interface ReconcileConfig {
  /** How often the reconciliation looks for changes and deletions the webhooks missed. */
  intervalMs: number;
  /** How often every shop gets a scheduled drift report; 0 turns the schedule off. */
  driftIntervalMs: number;
}

/**
 * Seconds one sync worker spends per catalog call: the call's round trip plus the sync's own
 * work between calls (measured in bench/: 100-150 ms against the sandbox on this machine).
 */
const SECONDS_PER_CALL = 0.15;

/**
 * The default sync concurrency: enough workers to keep the catalog budget busy (a worker makes
 * at most 1 / `SECONDS_PER_CALL` calls a second, so 4 workers leave a 100/s budget at 70/s),
 * at least 4, at most 16 (each holds a database connection while it works; set more explicitly).
 */
export function syncConcurrencyFor(catalogRatePerSecond: number): number {
  return Math.min(16, Math.max(4, Math.ceil(catalogRatePerSecond * SECONDS_PER_CALL)));
}

/** The `CONNECTOR_SYNC_*` and `CONNECTOR_MAPPING_*` variables; the concurrency follows the catalog budget. */
export function readSync(read: EnvReader, catalogRatePerSecond: number): SyncConfig {
  const debounceMs = read.int('CONNECTOR_SYNC_DEBOUNCE_MS', 1_000, { min: 0 });
  return {
    debounceMs,
    leadingEdge: read.bool('CONNECTOR_SYNC_LEADING_EDGE', true),
    // 30 s (or the debounce, when that is longer: a deployment with a long debounce keeps booting).
    debounceMaxMs: read.int('CONNECTOR_SYNC_DEBOUNCE_MAX_MS', Math.max(DEBOUNCE_MAX_MS, debounceMs), {
      min: debounceMs,
    }),
    concurrency: read.int('CONNECTOR_SYNC_CONCURRENCY', syncConcurrencyFor(catalogRatePerSecond), {
      min: 1,
      max: 100,
    }),
    attempts: read.int('CONNECTOR_SYNC_ATTEMPTS', 8, { min: 1, max: 100 }),
    backoffMs: read.int('CONNECTOR_SYNC_BACKOFF_MS', 2_000, { min: 1 }),
    lockRetryMs: read.int('CONNECTOR_SYNC_LOCK_RETRY_MS', LOCK_RETRY_MS, { min: 1 }),
    mappingRecheckMs: read.int('CONNECTOR_MAPPING_RECHECK_MS', 30_000, { min: 10 }),
    mappingRefreshMs: read.int('CONNECTOR_MAPPING_REFRESH_MS', 15 * 60_000, { min: 1_000 }),
    deleteGraceMs: read.int('CONNECTOR_SYNC_DELETE_GRACE_MS', 0, { min: 0 }),
    statuses: syncedStatuses(read),
    leavingStatuses: read.oneOf('CONNECTOR_SYNC_LEAVING_STATUSES', ['keep', 'delete'] as const, 'keep'),
    largeProducts: read.oneOf('CONNECTOR_LARGE_PRODUCTS', ['split', 'fail'] as const, 'split'),
    scopeWalkIntervalMs: read.int('CONNECTOR_SCOPE_WALK_INTERVAL_MS', 3_600_000, { min: 1_000 }),
  };
}

/** The `CONNECTOR_INBOX_*` variables. */
export function readInbox(read: EnvReader): InboxConfig {
  return {
    sweepIntervalMs: read.int('CONNECTOR_INBOX_SWEEP_INTERVAL_MS', 60_000, { min: 100 }),
    sweepAfterMs: read.int('CONNECTOR_INBOX_SWEEP_AFTER_MS', 300_000, { min: 0 }),
    enqueueFlushMs: read.int('CONNECTOR_INBOX_ENQUEUE_FLUSH_MS', 100, { min: 0, max: 1_000 }),
  };
}

/** `CONNECTOR_RESYNC_PAGE_SIZE`, `CONNECTOR_BULK_*` and `CONNECTOR_LINK_MATCH`. */
export function readResync(read: EnvReader): ResyncConfig {
  return {
    pageSize: read.int('CONNECTOR_RESYNC_PAGE_SIZE', 250, { min: 1, max: 250 }),
    bulkThreshold: read.int('CONNECTOR_BULK_THRESHOLD', 100, { min: 0, max: 249 }),
    bulkPollMs: read.int('CONNECTOR_BULK_POLL_MS', 1_000, { min: 10 }),
    linkMatch: readLinkMatch(read),
  };
}

/** `CONNECTOR_RECONCILE_INTERVAL_MS` and `CONNECTOR_DRIFT_INTERVAL_MS` (the scheduled drift report). */
export function readReconcile(read: EnvReader): ReconcileConfig {
  const driftIntervalMs = read.int('CONNECTOR_DRIFT_INTERVAL_MS', 24 * 3_600_000, { min: 0 });
  if (driftIntervalMs > 0 && driftIntervalMs < 60_000) {
    read.problems.push(
      `CONNECTOR_DRIFT_INTERVAL_MS must be 0 (no scheduled drift report) or at least 60000, got ${driftIntervalMs}`,
    );
  }
  return {
    intervalMs: read.int('CONNECTOR_RECONCILE_INTERVAL_MS', 6 * 3_600_000, { min: 1_000 }),
    driftIntervalMs,
  };
}

/** `CONNECTOR_SYNC_STATUSES`: a comma-separated list of Shopify product statuses. */
function syncedStatuses(read: EnvReader): SyncConfig['statuses'] {
  const raw = read.string('CONNECTOR_SYNC_STATUSES', 'ACTIVE,UNLISTED');
  const statuses = raw
    .split(',')
    .map((s) => s.trim().toUpperCase())
    .filter((s) => s !== '');
  const unknown = statuses.filter((s) => !(STATUSES as readonly string[]).includes(s));
  if (unknown.length > 0 || statuses.length === 0) {
    read.problems.push(`CONNECTOR_SYNC_STATUSES must list some of ${STATUSES.join(', ')}, got "${raw}"`);
    return ['ACTIVE', 'UNLISTED'];
  }
  return statuses as Array<(typeof STATUSES)[number]>;
}

/** `CONNECTOR_LINK_MATCH`: `<shopify field>:<catalog field>`, e.g. `barcode:gtin`. */
function readLinkMatch(read: EnvReader): ResyncConfig['linkMatch'] {
  const value = read.string('CONNECTOR_LINK_MATCH', 'sku:supplierSku');
  if (!(LINK_MATCHES as readonly string[]).includes(value)) {
    read.problems.push(`CONNECTOR_LINK_MATCH must be one of ${LINK_MATCHES.join(', ')}, got "${value}"`);
    return { shopify: 'sku', catalog: 'supplierSku' };
  }
  const [shopify, catalog] = value.split(':') as ['sku' | 'barcode', 'supplierSku' | 'gtin'];
  return { shopify, catalog };
}
