import type { ShopifyProduct } from '../shopify/product-read.js';
import type { SyncSubject } from './sync-subject.js';

/** What the catalog must come to reflect for one Shopify product. */
export type SyncChange = { kind: 'upsert'; product: ShopifyProduct } | { kind: 'delete' };

/** One catalog call the plan asks for (the sync engine gives it its shape). */
export interface PlannedCall {
  /** e.g. `PATCH /v1/products/{skuId}`, for the sync record. */
  readonly label: string;
}

/** The catalog calls that make the catalog match a change; empty when nothing differs. */
export interface SyncPlan {
  calls: PlannedCall[];
}

/** What each planned call returned, in order. */
export interface SyncCallResults {
  results: Array<{ call: PlannedCall; outcome: unknown }>;
}

/**
 * The catalog side of a product sync, in three steps, each its own seam:
 * - `plan`: compare the change with the persisted map and decide the minimal calls;
 * - `execute`: make the calls through the shop's catalog client;
 * - `record`: write the map (Shopify ids <-> supplierSku <-> skuId, snapshots) from the results.
 * The sync engine (next issue) provides them; until then they do nothing.
 */
export interface SyncSteps {
  plan(subject: SyncSubject, change: SyncChange): Promise<SyncPlan>;
  execute(subject: SyncSubject, plan: SyncPlan): Promise<SyncCallResults>;
  record(subject: SyncSubject, change: SyncChange, results: SyncCallResults): Promise<void>;
}

/** Steps that change nothing: the spine runs end to end before the sync engine exists. */
export const NO_OP_SYNC_STEPS: SyncSteps = {
  plan: async () => ({ calls: [] }),
  execute: async () => ({ results: [] }),
  record: async () => undefined,
};
