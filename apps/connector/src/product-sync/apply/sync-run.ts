import type { CanonicalProduct } from '../../clients/shopify/canonical-product.js';
import type { SyncReason } from '../../platform/queues/job-payloads.js';
import type { CatalogCallRecord } from './catalog-call-record.js';
import type { SyncOutcome } from './sync-subject.js';

/**
 * What the catalog must come to reflect for one Shopify product: its current state, or its
 * removal (`products/delete`, or the product no longer found in Shopify).
 */
export type SyncChange =
  | { kind: 'upsert'; product: CanonicalProduct }
  | { kind: 'delete'; cause: 'shopify-delete' | 'not-found' };

/**
 * One run's context, handed to the steps: who runs, and the calls made so far (the steps append
 * each catalog call as it answers, so the run's record holds them even when the run fails).
 */
export interface SyncRun {
  jobId: string | null;
  reason: SyncReason;
  readonly calls: CatalogCallRecord[];
  /** Events worth a line in the product's timeline (a record found gone and recreated, ...). */
  readonly events: string[];
  /** The product's title once the run read it (its record keeps it: lists name the product). */
  title?: string | null;
}

/** How the catalog side of a run ended. */
export interface SyncApplied {
  /** `applied`: calls made; `unchanged`: nothing to send; `skipped`: nothing to do by policy. */
  result: 'applied' | 'unchanged' | 'skipped';
  /** Why a run was skipped (no mapping, a status not synced, ...). */
  detail: string | null;
}

/** What a run did, for its record and the after-sync listeners. */
export interface SyncResult {
  outcome: SyncOutcome;
  product: CanonicalProduct | null;
  applied: SyncApplied | null;
  /** When the state the run applied was read (a snapshot's time, or the canonical read's). */
  readAt?: Date;
}
