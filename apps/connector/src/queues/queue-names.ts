/** Every queue of the connector. Each one has exactly one job class (`*.job.ts`), checked at boot. */
export const QueueName = {
  /** Reads one Shopify product and syncs it into the catalog. */
  SYNC_PRODUCT: 'sync-product',
  /** Scheduled: enqueues sync jobs for inbox rows stored but never processed. */
  INBOX_SWEEP: 'inbox-sweep',
} as const;
export type QueueName = (typeof QueueName)[keyof typeof QueueName];

export const ALL_QUEUES: readonly QueueName[] = Object.values(QueueName);

/** Job names within the queues (BullMQ's `name`), also the failures table's `job_kind`. */
export const JobName = {
  SYNC_PRODUCT: 'sync-product',
  INBOX_SWEEP: 'inbox-sweep',
} as const;
export type JobName = (typeof JobName)[keyof typeof JobName];
