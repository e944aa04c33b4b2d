import type { CanonicalVariant } from '../../clients/shopify/canonical-product.js';
import type { SupplierSkuSettings } from '../../mapping/model/mapping-file.js';

export interface SupplierSkuContext {
  settings: SupplierSkuSettings;
  shopDomain: string;
  /** Variants of the product being planned: a SKU must be unique among them too. */
  variants: readonly CanonicalVariant[];
  /** supplierSkus the shop already uses (the product's stored rows, and any the caller knows). */
  taken: ReadonlySet<string>;
}

/**
 * The supplierSku of a new record. Existing records keep the one they have: it is how the
 * catalog and the map find each other. By default derived from the shop and the Shopify ids
 * (`<prefix>:product:<id>`, `<prefix>:variant:<id>`), stable and unique while Shopify SKUs can be
 * empty or repeated. With `variant-sku`, a variant's (or a simple product's only variant's) SKU
 * where present and unique: Shopify counts no other inventory item with it
 * (`duplicateSkuCount` 0), no other variant of the product has it, and it is not taken.
 */
export function newSupplierSku(
  context: SupplierSkuContext,
  record:
    | { kind: 'product'; productId: string; onlyVariant: CanonicalVariant | null }
    | { kind: 'variant'; variant: CanonicalVariant },
): string {
  const prefix = context.settings.prefix ?? shopHandle(context.shopDomain);
  const derived =
    record.kind === 'product'
      ? `${prefix}:product:${record.productId}`
      : `${prefix}:variant:${record.variant.legacyResourceId}`;
  if (context.settings.strategy !== 'variant-sku') return derived;
  const variant = record.kind === 'variant' ? record.variant : record.onlyVariant;
  const sku = variant?.sku?.trim();
  if (!variant || !sku || variant.duplicateSkuCount > 0 || context.taken.has(sku)) return derived;
  const sharing = context.variants.filter((v) => v.sku?.trim() === sku);
  return sharing.length === 1 ? sku : derived;
}

/** `demo.myshopify.com` -> `demo`; any other domain as it is. */
export function shopHandle(shopDomain: string): string {
  return shopDomain.replace(/\.myshopify\.com$/i, '');
}
