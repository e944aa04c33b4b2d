/** Every queue of the connector. Each has a row in the flow table (`queue-flow.ts`): its job class, who enqueues it, its schedule, its retry rule; checked at boot. */
export const QueueName = {
  /** Reads one Shopify product and syncs it into the catalog. */
  SYNC_PRODUCT: 'sync-product',
  /** Scheduled: enqueues sync jobs for inbox rows stored but never processed. */
  INBOX_SWEEP: 'inbox-sweep',
  /** A product's images into its catalog records' `media` (after its attribute sync). */
  SYNC_MEDIA: 'sync-media',
  /** One page of a whole-shop resync run: list the page's products, enqueue them, move the cursor. */
  RESYNC_PAGE: 'resync-page',
  /** Scheduled: enqueues products whose changes or deletions the webhooks missed. */
  RECONCILE: 'reconcile',
  /** Scheduled: prunes old rows (inbox, failures, succeeded jobs, what stages register). */
  RETENTION: 'retention',
  /** Scheduled or asked for: finds finished enrichments and approvals, writes the outbox. */
  ENRICHMENT_POLL: 'enrichment-poll',
  /** Writes one product's approved catalog content back to Shopify. */
  ENRICHMENT_PUSH: 'enrichment-push',
  /** Scheduled: recreates each active shop's missing webhook subscriptions. */
  SUBSCRIPTION_CHECK: 'subscription-check',
  /** Scheduled, or after a `collections/*` delivery: compares scoped collections' members with what was synced. */
  SCOPE_WALK: 'scope-walk',
  /** Scheduled: one drift report job per shop; each job runs and stores that shop's report. */
  DRIFT_REPORT: 'drift-report',
  /** Scheduled: looks at each shop's state and enqueues its changes' alerts; one delivery of one alert to one target. */
  ALERT_DELIVERY: 'alert-delivery',
} as const;
export type QueueName = (typeof QueueName)[keyof typeof QueueName];

export const ALL_QUEUES: readonly QueueName[] = Object.values(QueueName);

/** Job names within the queues (BullMQ's `name`), also the failures table's `job_kind`. */
export const JobName = {
  SYNC_PRODUCT: 'sync-product',
  INBOX_SWEEP: 'inbox-sweep',
  SYNC_MEDIA: 'sync-media',
  RESYNC_PAGE: 'resync-page',
  RECONCILE: 'reconcile',
  RETENTION: 'retention',
  ENRICHMENT_POLL: 'enrichment-poll',
  ENRICHMENT_PUSH: 'enrichment-push',
  SUBSCRIPTION_CHECK: 'subscription-check',
  SCOPE_WALK: 'scope-walk',
  DRIFT_REPORT: 'drift-report',
  ALERT_DELIVERY: 'alert-delivery',
} as const;
export type JobName = (typeof JobName)[keyof typeof JobName];
