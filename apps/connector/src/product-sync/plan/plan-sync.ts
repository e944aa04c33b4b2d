import { CatalogLimits } from '#lib/catalog-contract';
import {
  type CanonicalProduct,
  isSimpleProduct,
  legacyIdOf,
} from '../../clients/shopify/canonical-product.js';
import { REQUIRED_ON_CREATE } from '../../mapping/check-ownership.js';
import type { ValidatedMapping } from '../../mapping/validated-mapping.js';
import { diffAttributes } from './attribute-diff.js';
import { enrichmentNotes } from './enrichment-notes.js';
import { missingRequiredMessage } from './missing-required.js';
import { newSupplierSku } from './supplier-sku.js';
import type { CatalogCall, PlannedRecord, RecordRef, StoredRecord, SyncPlan } from './sync-plan.js';
import { buildTargets, type TargetRecord } from './target-records.js';

export interface PlanInput {
  shop: { domain: string; currencyCode: string | null };
  product: CanonicalProduct;
  mapping: ValidatedMapping;
  /** The product's live and pending rows in the sku map; empty for a product never synced. */
  stored: readonly StoredRecord[];
  /** supplierSkus used elsewhere in the shop, when the `variant-sku` strategy is on. */
  takenSupplierSkus?: ReadonlySet<string>;
}

/**
 * Plans the sync of one Shopify product: the target records through the mapping, compared with
 * the stored snapshots, to the fewest catalog calls. A new product is created (simple, or parent
 * then one variant per Shopify variant); an existing one gets one PATCH per record with only the
 * changed attributes, POSTs for new variants and DELETEs for removed ones (deletes first, so a
 * parent never passes 200 variants). Options gained or lost change the kind of the product's
 * record, never delete it: its variant-level values are cleared as it becomes a parent. Nothing
 * mapped changed: no calls. Pure: the caller makes the calls in order and writes `records`.
 */
export function planSync(input: PlanInput): SyncPlan {
  const { product, mapping, shop } = input;
  const simple = isSimpleProduct(product);
  if (!simple && product.variantsCount > CatalogLimits.VARIANTS_PER_PARENT) {
    return failed({
      code: 'variant-limit-exceeded',
      message: `the product has ${product.variantsCount} variants; a catalog parent takes at most ${CatalogLimits.VARIANTS_PER_PARENT}: nothing was synced`,
      variantCount: product.variantsCount,
      limit: CatalogLimits.VARIANTS_PER_PARENT,
    });
  }
  const targets = buildTargets(product, mapping, shop.currencyCode);
  const storedOwn = input.stored.find((r) => r.shopifyVariantId === null) ?? null;
  const ownCreate = storedOwn === null || storedOwn.skuId === null;
  // A parent (re)created now cannot hold the variants of the record it replaces: they are created too.
  const storedVariants = new Map(
    input.stored
      .filter((r) => r.shopifyVariantId !== null)
      .map((r) => [legacyIdOf(r.shopifyVariantId as string), ownCreate ? { ...r, skuId: null } : r]),
  );
  const taken = new Set([...(input.takenSupplierSkus ?? []), ...input.stored.map((r) => r.supplierSku)]);
  const skuContext = {
    settings: mapping.file.supplierSku,
    shopDomain: shop.domain,
    variants: product.variants,
    taken,
  };
  const claim = (sku: string) => {
    taken.add(sku);
    return sku;
  };

  if (ownCreate) {
    for (const key of REQUIRED_ON_CREATE) {
      if ((targets.product.values.get(key) ?? null) === null) {
        return failed({
          code: 'missing-required-attribute',
          attribute: key,
          message: missingRequiredMessage(targets.product, key),
        });
      }
    }
  }
  const own = planRecord(
    targets.product,
    storedOwn,
    storedOwn?.supplierSku ??
      claim(
        newSupplierSku(skuContext, {
          kind: 'product',
          productId: product.legacyResourceId,
          onlyVariant: simple ? (product.variants[0] ?? null) : null,
        }),
      ),
    null,
    product.updatedAt,
    mapping,
  );

  const deletes: CatalogCall[] = [];
  const variantCalls: CatalogCall[] = [];
  const creates: CatalogCall[] = [];
  const records: PlannedRecord[] = [own.record];
  for (const target of targets.variants) {
    const stored = storedVariants.get(target.shopifyVariantId as string) ?? null;
    storedVariants.delete(target.shopifyVariantId as string);
    const variant = target.variant;
    const supplierSku =
      stored?.supplierSku ?? (variant ? claim(newSupplierSku(skuContext, { kind: 'variant', variant })) : '');
    const planned = planRecord(
      target,
      stored,
      supplierSku,
      own.record.supplierSku,
      variant?.updatedAt ?? null,
      mapping,
    );
    records.push(planned.record);
    if (planned.call) (planned.call.kind === 'createVariant' ? creates : variantCalls).push(planned.call);
  }
  for (const stored of storedVariants.values()) {
    const ref: RecordRef = {
      kind: 'variant',
      shopifyVariantId: stored.shopifyVariantId,
      supplierSku: stored.supplierSku,
    };
    deletes.push({ kind: 'deleteVariant', record: ref, skuId: stored.skuId });
    records.push({
      ...ref,
      parentSupplierSku: own.record.supplierSku,
      skuId: stored.skuId,
      action: 'delete',
      snapshot: stored.snapshot,
      shopifyUpdatedAt: null,
      configuration: null,
      gaps: [],
    });
  }
  const gaps = records.flatMap((r) => r.gaps);
  return {
    status: 'planned',
    failure: null,
    records,
    calls: [...deletes, ...(own.call ? [own.call] : []), ...variantCalls, ...creates],
    gaps,
    notes: [...targets.notes, ...enrichmentNotes(targets.product, mapping, own.keptRequired)],
  };
}

/** One record's planned state and the call (create, edit, or none) that gets it there. */
function planRecord(
  target: TargetRecord,
  stored: StoredRecord | null,
  supplierSku: string,
  parentSupplierSku: string | null,
  shopifyUpdatedAt: string | null,
  mapping: ValidatedMapping,
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
    const lookupFirst = stored !== null;
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

function failed(failure: NonNullable<SyncPlan['failure']>): SyncPlan {
  return { status: 'failed', failure, records: [], calls: [], gaps: [], notes: [] };
}
