import type { CatalogCall, PlannedRecord, RecordRef, StoredRecord, SyncPlan } from './sync-plan.js';

/**
 * Plans the removal of a product's catalog records (`products/delete`, or a product leaving the
 * synced statuses when configured to delete): its variants first, then the product itself
 * (the catalog refuses a parent that still has variants); a product split into groups has
 * several parents, all deleted after every variant. Every row becomes `delete`: tombstone them
 * once their call succeeded.
 */
export function planDeletion(stored: readonly StoredRecord[]): SyncPlan {
  const parents = stored.filter((r) => r.shopifyVariantId === null);
  const own = parents[0] ?? null;
  const variants = stored.filter((r) => r.shopifyVariantId !== null);
  const calls: CatalogCall[] = [];
  const records: PlannedRecord[] = [];
  for (const row of [...variants, ...parents]) {
    const parent = row.shopifyVariantId === null;
    const record: RecordRef = {
      kind: row.kind,
      shopifyVariantId: row.shopifyVariantId,
      supplierSku: row.supplierSku,
    };
    calls.push({ kind: parent ? 'deleteProduct' : 'deleteVariant', record, skuId: row.skuId });
    records.push({
      ...record,
      parentSupplierSku: parent ? null : (row.parentSupplierSku ?? own?.supplierSku ?? null),
      skuId: row.skuId,
      action: 'delete',
      snapshot: row.snapshot,
      shopifyUpdatedAt: null,
      configuration: null,
      gaps: [],
    });
  }
  return { status: 'planned', failure: null, records, calls, gaps: [], notes: [] };
}
