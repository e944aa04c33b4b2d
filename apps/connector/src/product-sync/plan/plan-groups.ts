import {
  type CanonicalProduct,
  type CanonicalVariant,
  legacyIdOf,
} from '../../clients/shopify/canonical-product.js';
import { REQUIRED_ON_CREATE } from '../../mapping/check-ownership.js';
import type { ValidatedMapping } from '../../mapping/validated-mapping.js';
import { enrichmentNotes } from './enrichment-notes.js';
import { missingRequiredMessage } from './missing-required.js';
import { planRecord } from './plan-record.js';
import { replacedParents } from './replaced-parents.js';
import type { CatalogCall, PlanFailure, PlannedRecord, StoredRecord, SyncPlan } from './sync-plan.js';
import type { Targets } from './target-records.js';
import { type GroupableVariant, variantGroups } from './variant-groups.js';

export interface GroupedPlanInput {
  product: CanonicalProduct;
  mapping: ValidatedMapping;
  stored: readonly StoredRecord[];
  targets: Targets;
  /** The supplierSku prefix (the mapping's, or the shop's handle). */
  prefix: string;
  /** A new variant's supplierSku (`newSupplierSku`, claimed). */
  newVariantSku: (variant: CanonicalVariant) => string;
}

/**
 * Why: a product over the catalog's 200 variants per parent (the `split` policy) becomes one
 * parent per group of `variantGroups`, each with the product-level attributes, its variants under
 * it. Also plans a split product that shrank back to 200 or fewer (one group, `all`: the product's
 * own supplierSku). A stored variant whose parent is not its group's is deleted and created again
 * under the right one (the catalog cannot re-parent; its enrichment is lost); stored parents no
 * group owns any more are deleted after their variants. Order: variant deletes, parent deletes,
 * parent creates and edits, variant edits, variant creates. Every variant must have been read.
 */
export function planGroupedSync(input: GroupedPlanInput): SyncPlan | PlanFailure {
  const { product, mapping, targets } = input;
  if (product.variants.length < product.variantsCount) {
    return {
      code: 'variants-not-read',
      message: `the product has ${product.variantsCount} variants and ${product.variants.length} were read: nothing was synced`,
      variantCount: product.variantsCount,
    };
  }
  const groups = variantGroups({
    prefix: input.prefix,
    productId: product.legacyResourceId,
    variants: product.variants.map(groupable),
  });
  const storedParents = input.stored.filter((r) => r.shopifyVariantId === null);
  const matched = new Set<StoredRecord>();
  const parentCalls: CatalogCall[] = [];
  const records: PlannedRecord[] = [];
  const parentOf = new Map<string, { supplierSku: string; created: boolean }>();
  let keptRequired: string[] = [];
  for (const group of groups) {
    const stored = storedParents.find((p) => (p.variantGroup ?? 'all') === group.key) ?? null;
    if (stored) matched.add(stored);
    const created = stored === null || stored.skuId === null;
    if (created) {
      for (const key of REQUIRED_ON_CREATE) {
        if ((targets.product.values.get(key) ?? null) === null) {
          return {
            code: 'missing-required-attribute',
            attribute: key,
            message: missingRequiredMessage(targets.product, key),
          };
        }
      }
    }
    const supplierSku = stored?.supplierSku ?? group.supplierSku;
    const planned = planRecord(targets.product, stored, supplierSku, null, product.updatedAt, mapping);
    if (records.length === 0) keptRequired = planned.keptRequired;
    records.push(group.key === 'all' ? planned.record : { ...planned.record, variantGroup: group.key });
    if (planned.call) parentCalls.push(planned.call);
    for (const id of group.variantIds) parentOf.set(legacyIdOf(id), { supplierSku, created });
  }

  const storedVariants = new Map(
    input.stored
      .filter((r) => r.shopifyVariantId !== null)
      .map((r) => [legacyIdOf(r.shopifyVariantId as string), r]),
  );
  const variantDeletes: CatalogCall[] = [];
  const variantCalls: CatalogCall[] = [];
  const creates: CatalogCall[] = [];
  for (const target of targets.variants) {
    const id = target.shopifyVariantId as string;
    const parent = parentOf.get(id) as { supplierSku: string; created: boolean };
    const stored = storedVariants.get(id) ?? null;
    storedVariants.delete(id);
    const variant = target.variant;
    const supplierSku = stored?.supplierSku ?? (variant ? input.newVariantSku(variant) : '');
    const moved =
      stored !== null &&
      stored.skuId !== null &&
      stored.parentSupplierSku !== undefined &&
      stored.parentSupplierSku !== null &&
      stored.parentSupplierSku !== parent.supplierSku;
    if (moved) {
      variantDeletes.push({
        kind: 'deleteVariant',
        record: { kind: 'variant', shopifyVariantId: stored.shopifyVariantId, supplierSku },
        skuId: stored.skuId,
      });
    }
    // Moved: created afresh once deleted. Under a parent created now: its old record went with it.
    const base = stored !== null && (moved || parent.created) ? { ...stored, skuId: null } : stored;
    const planned = planRecord(
      target,
      base,
      supplierSku,
      parent.supplierSku,
      variant?.updatedAt ?? null,
      mapping,
      moved ? false : base !== null,
    );
    records.push(planned.record);
    if (planned.call) (planned.call.kind === 'createVariant' ? creates : variantCalls).push(planned.call);
  }
  for (const stored of storedVariants.values()) {
    variantDeletes.push({
      kind: 'deleteVariant',
      record: { kind: 'variant', shopifyVariantId: stored.shopifyVariantId, supplierSku: stored.supplierSku },
      skuId: stored.skuId,
    });
    records.push(deleted(stored, stored.parentSupplierSku ?? null));
  }
  const replaced = replacedParents(storedParents.filter((stored) => !matched.has(stored)));
  records.push(...replaced.records);
  const parentDeletes = replaced.calls;
  return {
    status: 'planned',
    failure: null,
    records,
    calls: [...variantDeletes, ...parentDeletes, ...parentCalls, ...variantCalls, ...creates],
    gaps: records.flatMap((r) => r.gaps),
    notes: [...targets.notes, ...enrichmentNotes(targets.product, mapping, keptRequired)],
  };
}

/** A stored record the plan deletes for good. */
function deleted(stored: StoredRecord, parentSupplierSku: string | null): PlannedRecord {
  return {
    kind: stored.kind,
    shopifyVariantId: stored.shopifyVariantId,
    supplierSku: stored.supplierSku,
    parentSupplierSku,
    skuId: stored.skuId,
    action: 'delete',
    snapshot: stored.snapshot,
    shopifyUpdatedAt: null,
    configuration: null,
    gaps: [],
  };
}

/** A canonical variant as grouping sees it; a value read without its id is keyed by its text. */
function groupable(variant: CanonicalVariant): GroupableVariant {
  return {
    id: variant.id,
    position: variant.position,
    selectedOptions: variant.selectedOptions.map((o) => ({
      name: o.name,
      value: o.value,
      optionValueId: o.optionValueId ?? `${o.name}=${o.value}`,
    })),
  };
}
