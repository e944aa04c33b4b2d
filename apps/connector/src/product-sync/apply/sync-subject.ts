/** The Shopify product a sync job is about. */
export interface SyncSubject {
  shop: string;
  /** Shopify's numeric product id, a decimal string. */
  productId: string;
}

/** How one run of a product's sync ended (also each handled delivery's `outcome`). */
export type SyncOutcome = 'synced' | 'deleted' | 'tombstoned' | 'stale' | 'nothing_pending' | 'not_found';
