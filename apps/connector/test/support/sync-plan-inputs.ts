import { readFileSync } from 'node:fs';
import type { CanonicalProduct, CanonicalVariant } from '../../src/clients/shopify/canonical-product.js';
import { checkMapping } from '../../src/mapping/check-mapping.js';
import { parseMappingFile } from '../../src/mapping/parse-mapping-file.js';
import type { ValidatedMapping } from '../../src/mapping/validated-mapping.js';
import { routeOf, type StoredRecord, type SyncPlan } from '../../src/product-sync/plan/sync-plan.js';
import { demoCatalogConfiguration } from './demo-catalog.js';

/**
 * Test support for planner tests: canonical products, the demo mapping, and `applyPlan`, which
 * plays the catalog and the sku map (skuIds for creates, rows from `records`).
 */
export const DEMO_MAPPING_TEXT = readFileSync(new URL('../../mappings/demo.yaml', import.meta.url), 'utf8');
export const SHOP = { domain: 'demo.myshopify.com', currencyCode: 'EUR' };

/** The demo mapping checked against the demo account's configuration, or another mapping text. */
export function demoMapping(
  text = DEMO_MAPPING_TEXT,
  catalog = demoCatalogConfiguration(),
): ValidatedMapping {
  return checkMapping(parseMappingFile(text), catalog);
}

let nextId = 9_007_199_254_740_993n; // 2^53 + 1: ids a JS number cannot hold

export function bigId(): string {
  nextId += 7n;
  return String(nextId);
}

export function variant(
  fields: Partial<CanonicalVariant> & { options?: Record<string, string> } = {},
): CanonicalVariant {
  const { options, ...rest } = fields;
  const id = rest.legacyResourceId ?? bigId();
  const selectedOptions = options
    ? Object.entries(options).map(([name, value]) => ({ name, value }))
    : [{ name: 'Title', value: 'Default Title' }];
  return {
    id: `gid://shopify/ProductVariant/${id}`,
    legacyResourceId: id,
    title: selectedOptions.map((o) => o.value).join(' / '),
    sku: null,
    barcode: null,
    price: '19.90',
    compareAtPrice: null,
    position: 1,
    updatedAt: '2026-01-01T00:00:00Z',
    selectedOptions,
    duplicateSkuCount: 0,
    ...rest,
  };
}

/** A product; `variants` get positions in order, and the options follow from them. */
export function product(fields: Partial<CanonicalProduct> = {}): CanonicalProduct {
  const id = fields.legacyResourceId ?? bigId();
  const variants = (fields.variants ?? [variant({ barcode: '4006381333931' })]).map((v, i) => ({
    ...v,
    position: i + 1,
  }));
  const names = [...new Set(variants.flatMap((v) => v.selectedOptions.map((o) => o.name)))];
  const hasOnlyDefaultVariant =
    variants.length === 1 && variants[0]?.selectedOptions.every((o) => o.value === 'Default Title') === true;
  return {
    id: `gid://shopify/Product/${id}`,
    legacyResourceId: id,
    title: 'Basic tee',
    handle: 'basic-tee',
    vendor: 'Acme',
    productType: 'T-Shirts',
    descriptionHtml: '<p>Soft cotton.</p>',
    status: 'ACTIVE',
    tags: [],
    seo: { title: null, description: null },
    createdAt: '2026-01-01T00:00:00Z',
    updatedAt: '2026-01-01T00:00:00Z',
    ...fields,
    // Derived from the variants, whatever `fields` held (tests override them on the result).
    hasOnlyDefaultVariant,
    options: names.map((name, i) => ({
      id: `gid://shopify/ProductOption/${i + 1}`,
      name,
      position: i + 1,
      values: [...new Set(variants.map((v) => v.selectedOptions.find((o) => o.name === name)?.value ?? ''))],
    })),
    variantsCount: variants.length,
    variants,
  };
}

let nextSku = 10_000_000;

/**
 * What the sku map holds after every call of `plan` succeeded: created records get a fresh
 * skuId, deleted ones disappear, the rest keep theirs.
 */
export function applyPlan(plan: SyncPlan, before: readonly StoredRecord[] = []): StoredRecord[] {
  if (plan.status !== 'planned') return [...before];
  return plan.records
    .filter((r) => r.action !== 'delete')
    .map((r) => ({
      kind: r.kind,
      shopifyVariantId: r.shopifyVariantId,
      supplierSku: r.supplierSku,
      skuId: r.skuId ?? `SK${nextSku++}`,
      snapshot: r.snapshot,
    }));
}

/** `METHOD path` of each call, with readable ids (`own` for the product's record), for compact assertions. */
export function callLines(plan: SyncPlan, stored: readonly StoredRecord[] = []): string[] {
  const own = stored.find((r) => r.shopifyVariantId === null)?.skuId;
  return plan.calls.map((call) => {
    const { method, path } = routeOf(call);
    const id = call.record.shopifyVariantId ?? 'own';
    return `${method} ${'skuId' in call && call.skuId !== null && call.skuId !== own ? path.replace(call.skuId, id) : path.replace(own ?? '-', 'own')}`;
  });
}
