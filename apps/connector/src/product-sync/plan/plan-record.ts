import { REQUIRED_ON_CREATE } from '../../mapping/check-ownership.js';
import type { ValidatedMapping } from '../../mapping/validated-mapping.js';
import { diffAttributes } from './attribute-diff.js';
import type { CatalogCall, PlannedRecord, RecordRef, StoredRecord } from './sync-plan.js';
import type { TargetRecord } from './target-records.js';

/**
 * Why: every catalog record of a plan (simple, parent, group parent, variant) goes from its stored
 * snapshot to its target the same way. One record's planned state and the call (create, edit, or
 * none) that gets it there; `lookupFirst` false forces a plain create (a variant re-created under
 * another parent after its delete).
 */
export function planRecord(
  target: TargetRecord,
  stored: StoredRecord | null,
  supplierSku: string,
  parentSupplierSku: string | null,
  shopifyUpdatedAt: string | null,
  mapping: ValidatedMapping,
  lookupFirst: boolean = stored !== null,
): { record: PlannedRecord; call: CatalogCall | null; keptRequired: string[] } {
  const ref: RecordRef = { kind: target.kind, shopifyVariantId: target.shopifyVariantId, supplierSku };
  const create = stored === null || stored.skuId === null;
  const isVariant = target.kind === 'variant';
  const keep = isVariant ? [] : [...REQUIRED_ON_CREATE];
  const diff = diffAttributes(target, create ? null : stored.snapshot, keep);
  const keptRequired = create
    ? []
    : keep.filter((k) => (target.values.get(k) ?? null) === null && !target.leftOut.has(k));
  let call: CatalogCall | null = null;
  if (create) {
    call = isVariant
      ? {
          kind: 'createVariant',
          record: ref,
          body: { parentSupplierSku: parentSupplierSku as string, supplierSku, attributes: diff.changes },
          lookupFirst,
        }
      : {
          kind: 'createProduct',
          record: ref,
          body: { product: { supplierSku, attributes: diff.changes } },
          lookupFirst,
        };
  } else if (diff.changes.length > 0) {
    const body = { product: { supplierSku, attributes: diff.changes } };
    const skuId = stored.skuId as string;
    call = isVariant
      ? { kind: 'updateVariant', record: ref, skuId, body }
      : { kind: 'updateProduct', record: ref, skuId, body };
  }
  const gaps = target.gaps.map((gap) => ({ ...gap, record: ref }));
  return {
    record: {
      ...ref,
      parentSupplierSku,
      skuId: stored?.skuId ?? null,
      action: create ? 'create' : call ? 'update' : 'unchanged',
      snapshot: diff.snapshot,
      shopifyUpdatedAt,
      configuration: {
        dependencies: [...new Set(target.dependencies)].sort(),
        hash: mapping.configurationHash(target.dependencies),
      },
      gaps,
    },
    call,
    keptRequired,
  };
}
