import type { WriteBackTarget } from '../../mapping/index.js';
import type { PushState } from './write-back-state.js';

/** One target of one owner for one attribute: what a decision is about. */
export interface TargetRef {
  /** The Shopify product the owner belongs to (mutations are grouped by it). */
  productId: string;
  /** The product itself, or one of its variants. */
  ownerId: string;
  attribute: string;
  target: WriteBackTarget;
  /** `targetKey(target)` */
  key: string;
  /** The mapping entry (`writeBack.product.seoTitle`). */
  path: string;
}

/** What one write does in Shopify. */
export type WriteOp =
  | {
      kind: 'field';
      field: 'title' | 'descriptionHtml' | 'seo.title' | 'seo.description';
      value: string | null;
    }
  | { kind: 'tags'; add: string[]; remove: string[] }
  | {
      kind: 'metafield-set';
      ownerId: string;
      namespace: string;
      key: string;
      type: string;
      value: string;
      /** The digest read with the current value; null: the metafield must not exist yet. */
      compareDigest: string | null;
    }
  | { kind: 'metafield-delete'; ownerId: string; namespace: string; key: string };

/**
 * A write to make: record `next` as the intent (with its value hash) before the call, and store
 * it as the push state once the call succeeded.
 */
export interface PlannedWrite {
  ref: TargetRef;
  /** `push`: a catalog value goes in; `retract`: a value the connector pushed comes out again. */
  purpose: 'push' | 'retract';
  op: WriteOp;
  next: PushState;
}

/** Why a target needs nothing. */
export type SkipReason =
  | 'unchanged'
  | 'pending-review'
  | 'nothing-to-retract'
  | 'merchant-owned'
  | 'not-in-catalog';

/**
 * Every decision for one product. Each target appears once among writes, conflicts, skipped and
 * failures; `settled` may hold it as well (an intent that landed, then decided anew).
 */
export interface WriteBackPlan {
  productId: string;
  writes: PlannedWrite[];
  /**
   * States to store without a write: an intent found to have landed (crash recovery), or a
   * target that already holds the value (a merchant typed the same, a concurrent push landed).
   */
  settled: Array<{ ref: TargetRef; next: PushState; why: 'intent-landed' | 'already-in-shopify' }>;
  /**
   * A merchant changed a target after the connector's push: the edit stays, later values are
   * not pushed over it (record the conflict; `next` marks the target merchant-owned).
   */
  conflicts: Array<{ ref: TargetRef; next: PushState; detail: string }>;
  skipped: Array<{ ref: TargetRef; reason: SkipReason }>;
  /** A catalog value that does not fit its target (recorded as a failed push, with the reason). */
  failures: Array<{ ref: TargetRef; reason: string }>;
}

/** An empty plan for a product. */
export function emptyPlan(productId: string): WriteBackPlan {
  return { productId, writes: [], settled: [], conflicts: [], skipped: [], failures: [] };
}
