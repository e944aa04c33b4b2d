import type { SyncPlan } from '../plan/index.js';
import { routeOf } from '../plan/index.js';
import type { PlannedWrite } from '../planned/planned-writes.repository.js';
import type { SkuMapRow } from '../sku-map/sku-map-row.entity.js';

/**
 * Why: a shop in `shadow` (issue 31) sends none of its plan's catalog calls; each becomes a
 * planned write instead, in the order live would send them: method, path and body, with the
 * record's attributes before (its sku map snapshot; null for a record not created yet) and after
 * (the plan's snapshot; null once deleted) and its mapping gaps. A create's path has no skuId: none is known yet.
 */
export function plannedCatalogWrites(plan: SyncPlan, rows: readonly SkuMapRow[]): PlannedWrite[] {
  return plan.calls.map((call) => {
    const row = rows.find((r) => r.supplierSku === call.record.supplierSku);
    const record = plan.records.find((r) => r.supplierSku === call.record.supplierSku);
    const creating = call.kind === 'createProduct' || call.kind === 'createVariant';
    const deleting = call.kind === 'deleteProduct' || call.kind === 'deleteVariant';
    const known = row !== undefined && row.state === 'live' && !creating;
    return {
      kind: call.kind,
      ...routeOf(call),
      supplierSku: call.record.supplierSku,
      body: 'body' in call ? (call.body as unknown as Record<string, unknown>) : null,
      before: known ? { ...row.snapshot } : null,
      after: deleting ? null : { ...(record?.snapshot ?? {}) },
      gaps: (record?.gaps ?? []).map((g) => ({ attribute: g.attribute, entry: g.entry, message: g.message })),
    };
  });
}
