/**
 * Why a product sync job exists; only `webhook` and `sweep` jobs may find nothing to do. The
 * others read the product whatever the inbox holds: `replay` (a failure replayed), `resync` (an
 * operator's or a whole-shop resync), `reconcile` (a change the webhooks missed), `drift` (the
 * mapping or the account's definitions changed under the product's records), `scope` (the
 * product may have entered or left the shop's scope: a changed scope, a collection's members),
 * `go-live` (the shop left shadow with planned writes for the product: planned again, and sent),
 * `operator` (`POST /admin/products/{id}/sync`: now, no debounce).
 */
export type SyncReason =
  | 'webhook'
  | 'sweep'
  | 'replay'
  | 'resync'
  | 'reconcile'
  | 'drift'
  | 'scope'
  | 'go-live'
  | 'operator';

/**
 * A product sync job's data: which product, never what it looks like. The job reads the
 * product's pending deliveries from the inbox and its current state from Shopify.
 */
export interface SyncProductPayload {
  shop: string;
  /** Shopify's numeric product id, as a decimal string (ids may exceed 2^53). */
  productId: string;
  reason: SyncReason;
  /** The failure being replayed (`reason: 'replay'`). */
  failureId?: string;
}

/** The inbox sweeper's scheduled job carries nothing. */
export type InboxSweepPayload = Record<string, never>;

/** The retention job's scheduled run carries nothing: ages come from the configuration. */
export type RetentionPayload = Record<string, never>;

/** Why a media job exists: a finished product sync, or a failure replayed. */
export type SyncMediaReason = 'synced' | 'replay';

/**
 * A media job's data: which product, never its images (the job reads them from Shopify).
 * `laterRuns` counts the runs already put off because images may still come (`retryLater`).
 */
export interface SyncMediaPayload {
  shop: string;
  /** Shopify's numeric product id, as a decimal string. */
  productId: string;
  reason: SyncMediaReason;
  /** The failure being replayed (`reason: 'replay'`). */
  failureId?: string;
  laterRuns?: number;
}

/** One page of a resync run: the run is read from its table (cursor, state), never carried here. */
export interface ResyncPagePayload {
  runId: string;
  shop: string;
}

/** The reconciliation's scheduled job carries nothing: every shop is reconciled from its checkpoint. */
export type ReconcilePayload = Record<string, never>;

/** A poll: its id is the job's id (`enrichment_poll` row); scheduled polls carry nothing. */
export interface EnrichmentPollPayload {
  /** As `PollTrigger` (write-back/store): kept here too, so the queue layer imports no feature. */
  trigger: 'schedule' | 'early' | 'admin';
  /** An early poll (`EarlyPolls`): only these shops, the ones with records waiting. */
  shops?: string[];
}

/** Why a push job runs: a poll found work, a sync saw the product, or a failure is replayed. */
export type EnrichmentPushReason = 'poll' | 'sync' | 'replay' | 'overwrite' | 'go-live';

/** One product's write-back: which product, never what to write (the job reads both sides). */
export interface EnrichmentPushPayload {
  shop: string;
  /** Shopify's numeric product id, a decimal string. */
  productId: string;
  reason: EnrichmentPushReason;
  /** The failure being replayed (`reason: 'replay'`). */
  failureId?: string;
  /**
   * `reason: 'overwrite'`: an operator lets these attributes (all when empty) be pushed over a
   * merchant's edit, once.
   */
  overwrite?: string[];
}

/**
 * The subscription check: the scheduled one carries nothing (it checks the shops whose turn came,
 * `ShopTurns`); one asked for by a shop that is active again names it.
 */
export interface SubscriptionCheckPayload {
  shop?: string;
}

/** A walk of scoped collections: one shop's (after a `collections/*` delivery), or every shop's (scheduled). */
export interface ScopeWalkPayload {
  shop?: string;
}

/**
 * The failures inbox subject of a shop's drift report (one open failure per shop and cause),
 * resolved by the shop's next report that succeeds (`DriftReportJob`, under the job guard).
 */
export const DRIFT_REPORT_SUBJECT = 'drift-report';

/** A drift report job: the scheduled one carries no shop (it enqueues one job per shop). */
export interface DriftReportPayload {
  shop?: string;
  /** A shop's job the schedule enqueued: skipped when the shop's last report is recent. */
  scheduled?: boolean;
}

/**
 * An alert job: the scheduled one carries nothing (it looks at every shop's state and enqueues
 * the deliveries of the changes that held); a delivery names its row (`alert_deliveries`), never
 * what it says, and the failure it replays.
 */
export interface AlertDeliveryPayload {
  deliveryId?: string;
  failureId?: string;
}
