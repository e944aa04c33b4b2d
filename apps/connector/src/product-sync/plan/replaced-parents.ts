import type { CatalogCall, PlannedRecord, StoredRecord } from './sync-plan.js';

/**
 * Why: a change of a product's shape (split, unsplit, regrouped, a group fewer, split to simple)
 * leaves stored parents the new shape does not need, and any shape must end with exactly the
 * parents it needs. Each is deleted (the caller puts these calls after every variant delete: the
 * catalog deletes variants independently of their parent) and its row removed from the map
 * (`removeRow`: the Shopify product lives on, and a later shape may need that parent again).
 * Only ever given the product's own stored rows (this shop's sku map), never a guess.
 */
export function replacedParents(parents: readonly StoredRecord[]): {
  calls: CatalogCall[];
  records: PlannedRecord[];
} {
  const calls: CatalogCall[] = [];
  const records: PlannedRecord[] = [];
  for (const stored of parents) {
    const record = { kind: stored.kind, shopifyVariantId: null, supplierSku: stored.supplierSku };
    calls.push({ kind: 'deleteProduct', record, skuId: stored.skuId });
    records.push({
      ...record,
      ...(stored.variantGroup ? { variantGroup: stored.variantGroup } : {}),
      parentSupplierSku: null,
      skuId: stored.skuId,
      action: 'delete',
      removeRow: true,
      snapshot: stored.snapshot,
      shopifyUpdatedAt: null,
      configuration: null,
      gaps: [],
    });
  }
  return { calls, records };
}
