import type { EnvReader } from '#lib/config';
import { LOCK_RETRY_MS } from './sync-config.js';

/** The enrichment poll and the write-back of approved content to Shopify (docs/configuration.md, "Configuration"). */
export interface EnrichmentConfig {
  /** How often the scheduled poll runs (one job per interval across replicas). */
  pollIntervalMs: number;
  /**
   * How soon a poll follows the last one while a shop has records waiting for enrichment or
   * review (synced within `activeWindowMs`, or on the review watchlist): an early poll of those
   * shops, enqueued by the poll job itself (`EarlyPolls`). At or above `pollIntervalMs`: off.
   */
  activePollIntervalMs: number;
  /** How long after a sync applied a record its shop counts as waiting for the record's enrichment. */
  activeWindowMs: number;
  /**
   * The share of a catalog account's budget (`CONNECTOR_CATALOG_RATE_PER_SECOND`) the polls may
   * spend: an early poll that would spend more is put off, or skipped (`earlyPollPlan`).
   */
  pollBudgetShare: number;
  /** How far behind its checkpoint each poll looks again (values the catalog wrote late). */
  overlapMs: number;
  /** Search calls per walked field and poll at most, and for the watchlist (the next poll goes on). */
  maxCallsPerPoll: number;
  /**
   * How often the review watchlist is re-checked (a poll re-checks it when this has passed). 0,
   * the default: at every poll, so an approval the review does not date is pushed within a poll
   * interval; each poll re-checks at most `maxCallsPerPoll` searches of it (`watchlistTurn`).
   */
  watchlistIntervalMs: number;
  /**
   * How often every mapped record is read again (keyset over the sku map, 500 per search, at
   * bulk priority): a review changed after the record left the watchlist moves no field a walk
   * sees. 0: at every poll.
   */
  rewalkIntervalMs: number;
  /** A record awaiting review longer than this leaves the watchlist. */
  watchlistMaxAgeMs: number;
  /**
   * How old the records a poll read for a product (`RecordSnapshot`) may be for its push to use
   * them instead of searching the catalog again.
   */
  snapshotMaxAgeMs: number;
  pushConcurrency: number;
  pushAttempts: number;
  /** First retry delay of a push job; doubles at each attempt. */
  pushBackoffMs: number;
  /** Delay of a push job whose product is being synced or pushed by another job. */
  lockRetryMs: number;
}

/** The `CONNECTOR_ENRICHMENT_*` variables. */
export function readEnrichment(read: EnvReader): EnrichmentConfig {
  return {
    pollIntervalMs: read.int('CONNECTOR_ENRICHMENT_POLL_INTERVAL_MS', 60_000, { min: 100 }),
    activePollIntervalMs: read.int('CONNECTOR_ENRICHMENT_POLL_ACTIVE_INTERVAL_MS', 5_000, { min: 100 }),
    activeWindowMs: read.int('CONNECTOR_ENRICHMENT_POLL_ACTIVE_WINDOW_MS', 600_000, { min: 0 }),
    pollBudgetShare: read.number('CONNECTOR_ENRICHMENT_POLL_BUDGET_SHARE', 0.1, { min: 0, max: 1 }),
    overlapMs: read.int('CONNECTOR_ENRICHMENT_OVERLAP_MS', 300_000, { min: 0 }),
    maxCallsPerPoll: read.int('CONNECTOR_ENRICHMENT_POLL_MAX_CALLS', 40, { min: 1, max: 10_000 }),
    watchlistIntervalMs: read.int('CONNECTOR_ENRICHMENT_WATCHLIST_INTERVAL_MS', 0, { min: 0 }),
    rewalkIntervalMs: read.int('CONNECTOR_ENRICHMENT_REWALK_INTERVAL_MS', 3_600_000, { min: 0 }),
    watchlistMaxAgeMs: read.int('CONNECTOR_ENRICHMENT_WATCHLIST_MAX_AGE_MS', 30 * 24 * 3_600_000, {
      min: 1,
    }),
    snapshotMaxAgeMs: read.int('CONNECTOR_ENRICHMENT_SNAPSHOT_MAX_AGE_MS', 1_800_000, { min: 0 }),
    pushConcurrency: read.int('CONNECTOR_ENRICHMENT_PUSH_CONCURRENCY', 2, { min: 1, max: 50 }),
    pushAttempts: read.int('CONNECTOR_ENRICHMENT_PUSH_ATTEMPTS', 8, { min: 1, max: 100 }),
    pushBackoffMs: read.int('CONNECTOR_ENRICHMENT_PUSH_BACKOFF_MS', 2_000, { min: 1 }),
    // As the sync's (`LOCK_RETRY_MS`): a push that met a busy product does not wait half a second.
    lockRetryMs: read.int('CONNECTOR_ENRICHMENT_LOCK_RETRY_MS', LOCK_RETRY_MS, { min: 1 }),
  };
}
