import type { CatalogCall, PlannedRecord, RecordRef, StoredRecord, SyncPlan } from './sync-plan.js';

/**
 * Plans the removal of a product's catalog records (`products/delete`, or a product leaving the
 * synced statuses when configured to delete): its variants first, then the product itself
 * (the catalog refuses a parent that still has variants). Every row becomes `delete`: tombstone
 * them once their call succeeded.
 */
export function planDeletion(stored: readonly StoredRecord[]): SyncPlan {
  const own = stored.find((r) => r.shopifyVariantId === null) ?? null;
  const variants = stored.filter((r) => r.shopifyVariantId !== null);
  const calls: CatalogCall[] = [];
  const records: PlannedRecord[] = [];
  for (const row of [...variants, ...(own ? [own] : [])]) {
    const record: RecordRef = {
      kind: row.kind,
      shopifyVariantId: row.shopifyVariantId,
      supplierSku: row.supplierSku,
    };
    calls.push({ kind: row === own ? 'deleteProduct' : 'deleteVariant', record, skuId: row.skuId });
    records.push({
      ...record,
      parentSupplierSku: row === own ? null : (own?.supplierSku ?? null),
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
