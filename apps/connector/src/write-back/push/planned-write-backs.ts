import { writeBackOperationName } from '../../clients/shopify/write-back-calls.js';
import type { PlannedWrite as PlannedRow } from '../../product-sync/planned/planned-writes.repository.js';
import type { PlannedWrite, WriteBackPlan } from '../decide/write-back-plan.js';
import { namespaceMatches, type ShopifyProductState } from '../decide/write-back-state.js';
import type { WriteBackMutation } from '../shopify/build-mutations.js';

/** The `planned_writes` source of the write-back's mutations. */
export const WRITE_BACK_SOURCE = 'write-back';

/**
 * Why: a shop in `shadow` sends no mutation (issue 31); each one live would send becomes a
 * planned write: kind the mutation's root, method `MUTATION`, path the document's operation
 * name, body its variables, and per target (`seo.title`, `metafield:$app:catalog.material`; a
 * variant's target carries `@<variant id>`) its value before and after. Each conflict (a
 * merchant's edit the decision keeps) is one more row, kind `conflict`, method `HELD`: nothing
 * would be sent for it, the preview counts it.
 */
export function plannedWriteBacks(
  mutations: readonly WriteBackMutation[],
  plan: Pick<WriteBackPlan, 'writes' | 'conflicts'>,
  shopify: ShopifyProductState,
): PlannedRow[] {
  const writes = plan.writes;
  const held = plan.conflicts.map(
    (c): PlannedRow => ({
      kind: 'conflict',
      method: 'HELD',
      path: c.ref.key,
      supplierSku: null,
      body: { detail: c.detail },
      before: null,
      after: null,
    }),
  );
  const sent = mutations.map((mutation): PlannedRow => {
    const before: Record<string, unknown> = {};
    const after: Record<string, unknown> = {};
    for (const i of mutation.writes) {
      const write = writes[i];
      if (!write) continue;
      const key = targetName(write);
      before[key] = valueBefore(write, shopify);
      after[key] = valueAfter(write, shopify);
    }
    return {
      kind: mutation.root,
      method: 'MUTATION',
      path: writeBackOperationName(mutation.root),
      supplierSku: null,
      body: mutation.variables,
      before,
      after,
    };
  });
  return [...sent, ...held];
}

/** The target's name in a planned write's before/after: its key, `@<variant id>` for a variant's. */
export function targetName(write: PlannedWrite): string {
  const { ref } = write;
  if (ref.ownerId === ref.productId) return ref.key;
  return `${ref.key}@${ref.ownerId.slice(ref.ownerId.lastIndexOf('/') + 1)}`;
}

function valueBefore(write: PlannedWrite, shopify: ShopifyProductState): unknown {
  const op = write.op;
  switch (op.kind) {
    case 'field':
      if (op.field === 'seo.title') return shopify.seo.title;
      if (op.field === 'seo.description') return shopify.seo.description;
      return shopify[op.field];
    case 'tags':
      return [...shopify.tags];
    case 'metafield-set':
    case 'metafield-delete':
      return (
        shopify.metafields.find(
          (m) => m.ownerId === op.ownerId && m.key === op.key && namespaceMatches(op.namespace, m.namespace),
        )?.value ?? null
      );
  }
}

function valueAfter(write: PlannedWrite, shopify: ShopifyProductState): unknown {
  const op = write.op;
  switch (op.kind) {
    case 'field':
      return op.value;
    case 'tags': {
      const removed = new Set(op.remove.map((t) => t.toLowerCase()));
      const kept = shopify.tags.filter((t) => !removed.has(t.toLowerCase()));
      const lower = new Set(kept.map((t) => t.toLowerCase()));
      return [...kept, ...op.add.filter((t) => !lower.has(t.toLowerCase()))];
    }
    case 'metafield-set':
      return op.value;
    case 'metafield-delete':
      return null;
  }
}
