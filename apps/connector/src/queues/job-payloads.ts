/** Why a product sync job exists; only `webhook` and `sweep` jobs may find nothing to do. */
export type SyncReason = 'webhook' | 'sweep' | 'replay';

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
