import type { CanonicalProduct } from '../clients/shopify/canonical-product.js';
import type { SyncReason } from '../platform/queues/job-payloads.js';
import type { CatalogCallRecord } from './sync-record.js';
import type { SyncSubject } from './sync-subject.js';

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

/**
 * The catalog side of a product sync, provided by a later stage (the sku map) through the
 * `SYNC_STEPS` token so the sync stage never imports it: plan the minimal calls against the
 * persisted map, make them through the shop's catalog client, and record the map as each call
 * answers (intent before a create, the skuId after). Throws what should fail the job.
 */
export interface SyncSteps {
  apply(subject: SyncSubject, change: SyncChange, run: SyncRun): Promise<SyncApplied>;
}

/** Steps that change nothing: a connector wired without the sku map (unit tests of the job). */
export const NO_OP_SYNC_STEPS: SyncSteps = {
  apply: async () => ({ result: 'skipped', detail: 'no sync steps' }),
};
