import { valueHash } from '../values/value-hash.js';
import { currentOf } from './plan-write-back.js';
import type { PlannedWrite, WriteBackPlan } from './write-back-plan.js';
import type { ShopifyProductState } from './write-back-state.js';

/**
 * Why: `productUpdate` has no compare-and-set, so a merchant's edit landing between the push's
 * read and its write would be overwritten, against "merchant edits win". The push reads its
 * targets again right before the write; a field or metafield whose value moved since the read
 * the plan was made from was edited by a merchant: its write is dropped and it becomes
 * merchant-owned (a conflict), as after a push. Tags are added and removed one by one, never
 * over the merchant's, and are left to their writes.
 */
export function editsInBetween(
  writes: readonly PlannedWrite[],
  planned: ShopifyProductState,
  fresh: ShopifyProductState,
): { keep: PlannedWrite[]; conflicts: WriteBackPlan['conflicts'] } {
  const keep: PlannedWrite[] = [];
  const conflicts: WriteBackPlan['conflicts'] = [];
  for (const write of writes) {
    if (write.ref.target.kind === 'tags') {
      keep.push(write);
      continue;
    }
    const before = valueHash(currentOf(write.ref, planned).comparable);
    const now = valueHash(currentOf(write.ref, fresh).comparable);
    if (before === now) {
      keep.push(write);
      continue;
    }
    conflicts.push({
      ref: write.ref,
      next: { ...write.next, status: 'merchant-owned', valueHash: now, intent: null },
      detail: `${write.ref.key} of ${write.ref.ownerId} was changed in Shopify while the connector was about to write it`,
    });
  }
  return { keep, conflicts };
}
