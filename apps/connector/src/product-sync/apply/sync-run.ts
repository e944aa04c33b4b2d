import type { CanonicalProduct } from '../../clients/shopify/canonical-product.js';
import type { SyncReason } from '../../platform/queues/job-payloads.js';
import type { CatalogCallRecord } from './catalog-call-record.js';

/**
 * What the catalog must come to reflect for one Shopify product: its current state, or its
 * removal (`products/delete`, or the product no longer found in Shopify).
 */
export type SyncChange =
  | { kind: 'upsert'; product: CanonicalProduct }
  | { kind: 'delete'; cause: 'shopify-delete' | 'not-found' };

/**
 * One run's context, handed to the steps: who runs, the calls made so far (the steps append each
 * catalog call as it answers, so the run's record holds them even when the run fails), and the
 * test-only fault point.
 */
export interface SyncRun {
  jobId: string | null;
  reason: SyncReason;
  readonly calls: CatalogCallRecord[];
  /** Events worth a line in the product's timeline (a record found gone and recreated, ...). */
  readonly events: string[];
  /**
   * Test seam: called right after a catalog create answered and before the map records its
   * `skuId`. A test throws here to play a crash at the worst moment.
   */
  afterCatalogCreate(supplierSku: string): Promise<void>;
}

/** How the catalog side of a run ended. */
export interface SyncApplied {
  /** `applied`: calls made; `unchanged`: nothing to send; `skipped`: nothing to do by policy. */
  result: 'applied' | 'unchanged' | 'skipped';
  /** Why a run was skipped (no mapping, a status not synced, ...). */
  detail: string | null;
}
