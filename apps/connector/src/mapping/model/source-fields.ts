import type { CanonicalProduct, CanonicalVariant } from '../../clients/shopify/canonical-product.js';

type SourceKind = 'text' | 'money' | 'list';

interface SourceField<T> {
  kind: SourceKind;
  read(from: T): string | string[] | null;
}

/**
 * The Shopify fields a mapping file may map, by their GraphQL names in the canonical read, with
 * how each is read. Empty strings read as null: Shopify answers `""` for a field the merchant
 * left empty.
 */
export const PRODUCT_SOURCE_FIELDS = {
  title: text((p: CanonicalProduct) => p.title),
  handle: text((p: CanonicalProduct) => p.handle),
  vendor: text((p: CanonicalProduct) => p.vendor),
  productType: text((p: CanonicalProduct) => p.productType),
  descriptionHtml: text((p: CanonicalProduct) => p.descriptionHtml),
  status: text((p: CanonicalProduct) => p.status),
  tags: { kind: 'list', read: (p: CanonicalProduct) => nonEmptyList(p.tags) },
  'seo.title': text((p: CanonicalProduct) => p.seo.title),
  'seo.description': text((p: CanonicalProduct) => p.seo.description),
  legacyResourceId: text((p: CanonicalProduct) => p.legacyResourceId),
} satisfies Record<string, SourceField<CanonicalProduct>>;

/** The variant fields a mapping file may map (see `PRODUCT_SOURCE_FIELDS`). */
export const VARIANT_SOURCE_FIELDS = {
  title: text((v: CanonicalVariant) => v.title),
  sku: text((v: CanonicalVariant) => v.sku),
  barcode: text((v: CanonicalVariant) => v.barcode),
  price: { kind: 'money', read: (v: CanonicalVariant) => nonEmpty(v.price) },
  compareAtPrice: { kind: 'money', read: (v: CanonicalVariant) => nonEmpty(v.compareAtPrice) },
  legacyResourceId: text((v: CanonicalVariant) => v.legacyResourceId),
} satisfies Record<string, SourceField<CanonicalVariant>>;

/** Names of mappable fields, as written in mapping files. */
export type ProductSourceField = keyof typeof PRODUCT_SOURCE_FIELDS;
export type VariantSourceField = keyof typeof VARIANT_SOURCE_FIELDS;

/** The kind of a source field (`list` fields may only feed MULTI_SELECT attributes). */
export function sourceKind(level: 'product' | 'variant', field: string): SourceKind {
  const fields: Record<string, SourceField<never>> = level === 'product'
    ? PRODUCT_SOURCE_FIELDS
    : VARIANT_SOURCE_FIELDS;
  const found = fields[field];
  if (!found) throw new Error(`unknown ${level} field ${field}`);
  return found.kind;
}

/** Reads a product-level source field of the canonical product. */
export function readProductField(product: CanonicalProduct, field: ProductSourceField) {
  return PRODUCT_SOURCE_FIELDS[field].read(product);
}

/** Reads a variant-level source field of a canonical variant. */
export function readVariantField(variant: CanonicalVariant, field: VariantSourceField) {
  return VARIANT_SOURCE_FIELDS[field].read(variant);
}

function text<T>(read: (from: T) => string | null): SourceField<T> {
  return { kind: 'text', read: (from) => nonEmpty(read(from)) };
}

function nonEmpty(value: string | null): string | null {
  return value === null || value.trim() === '' ? null : value;
}

function nonEmptyList(values: string[]): string[] | null {
  const kept = values.filter((v) => v.trim() !== '');
  return kept.length === 0 ? null : kept;
}
