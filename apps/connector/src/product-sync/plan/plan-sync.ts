import { CatalogLimits } from '#lib/catalog-contract';
import {
  type CanonicalProduct,
  isSimpleProduct,
  legacyIdOf,
} from '../../clients/shopify/canonical-product.js';
import { REQUIRED_ON_CREATE } from '../../mapping/check-ownership.js';
import type { ValidatedMapping } from '../../mapping/validated-mapping.js';
import { enrichmentNotes } from './enrichment-notes.js';
import { missingRequiredMessage } from './missing-required.js';
import { planGroupedSync } from './plan-groups.js';
import { planRecord } from './plan-record.js';
import { replacedParents } from './replaced-parents.js';
import { newSupplierSku, shopHandle } from './supplier-sku.js';
import type { CatalogCall, PlannedRecord, RecordRef, StoredRecord, SyncPlan } from './sync-plan.js';
import { buildTargets } from './target-records.js';

/**
 * What becomes of a product over the catalog's 200 variants per parent: `split` into several
 * parents (`variantGroups`), or `fail` (reported, nothing synced: the behaviour before issue 30).
 */
export type LargeProductPolicy = 'split' | 'fail';

export interface PlanInput {
  shop: { domain: string; currencyCode: string | null };
  product: CanonicalProduct;
  mapping: ValidatedMapping;
  /** The product's live and pending rows in the sku map; empty for a product never synced. */
  stored: readonly StoredRecord[];
  /** supplierSkus used elsewhere in the shop, when the `variant-sku` strategy is on. */
  takenSupplierSkus?: ReadonlySet<string>;
  /** Products over 200 variants (`CONNECTOR_LARGE_PRODUCTS`); `fail` when left out. */
  largeProducts?: LargeProductPolicy;
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
  const split = (input.largeProducts ?? 'fail') === 'split';
  const large = !simple && product.variantsCount > CatalogLimits.VARIANTS_PER_PARENT;
  if (large && !split) {
    return failed({
      code: 'variant-limit-exceeded',
      message: `the product has ${product.variantsCount} variants; a catalog parent takes at most ${CatalogLimits.VARIANTS_PER_PARENT}: nothing was synced`,
      variantCount: product.variantsCount,
      limit: CatalogLimits.VARIANTS_PER_PARENT,
    });
  }
  const targets = buildTargets(product, mapping, shop.currencyCode);
  const storedParents = input.stored.filter((r) => r.shopifyVariantId === null);
  // A split product's parents (one per group) become one record: a live one is kept (its
  // enrichment stays), the first in map order; the others are deleted below.
  const storedOwn = storedParents.find((r) => r.skuId !== null) ?? storedParents[0] ?? null;
  const ownCreate = storedOwn === null || storedOwn.skuId === null;
  const underOwn = (r: StoredRecord) =>
    (r.parentSupplierSku ?? storedOwn?.supplierSku) === storedOwn?.supplierSku;
  // A parent (re)created now cannot hold the variants of the record it replaces: they are created too.
  const storedVariants = new Map(
    input.stored
      .filter((r) => r.shopifyVariantId !== null)
      .map((r) => [
        legacyIdOf(r.shopifyVariantId as string),
        ownCreate && underOwn(r) ? { ...r, skuId: null } : r,
      ]),
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
  // Over the limit, or split before (a group parent stored): one parent per group.
  if (!simple && (large || input.stored.some((r) => r.variantGroup))) {
    const grouped = planGroupedSync({
      product,
      mapping,
      stored: input.stored,
      targets,
      prefix: mapping.file.supplierSku.prefix ?? shopHandle(shop.domain),
      newVariantSku: (variant) => claim(newSupplierSku(skuContext, { kind: 'variant', variant })),
    });
    return 'status' in grouped ? grouped : failed(grouped);
  }

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
      parentSupplierSku: stored.parentSupplierSku ?? own.record.supplierSku,
      skuId: stored.skuId,
      action: 'delete',
      snapshot: stored.snapshot,
      shopifyUpdatedAt: null,
      configuration: null,
      gaps: [],
    });
  }
  // The other parents of a product split before: deleted once every variant is (the catalog
  // deletes variants independently of their parent).
  const replaced = replacedParents(storedParents.filter((stored) => stored !== storedOwn));
  deletes.push(...replaced.calls);
  records.push(...replaced.records);
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

function failed(failure: NonNullable<SyncPlan['failure']>): SyncPlan {
  return { status: 'failed', failure, records: [], calls: [], gaps: [], notes: [] };
}
