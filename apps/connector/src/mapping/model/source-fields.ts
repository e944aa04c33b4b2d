import type {
  CanonicalMetafield,
  CanonicalProduct,
  CanonicalVariant,
} from '../../clients/shopify/canonical-product.js';
import type { MetafieldSource } from '../../clients/shopify/documents/canonical-product.query.js';

/** `metafield`: text, or a list for a `list.*` metafield (known only when read). */
type SourceKind = 'text' | 'money' | 'list' | 'metafield';

interface SourceField<T> {
  kind: SourceKind;
  read(from: T): string | string[] | null;
}

/** The prefix of metafield sources: `metafields.<namespace>.<key>`. */
export const METAFIELD_PREFIX = 'metafields.';

/** A metafield source as a mapping file names it. */
export type MetafieldSourceField = `metafields.${string}.${string}`;

/**
 * The Shopify fields a mapping file may map, by their GraphQL names in the canonical read, with
 * how each is read. Empty strings read as null: Shopify answers `""` for a field the merchant
 * left empty. `category`, `category.*` and `collections` (and `metafields.<namespace>.<key>`,
 * see `metafieldSource`) are asked for only when a mapping uses them (`ValidatedMapping.sources`).
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
  // Shopify's standard product category (`Product.category`, a `TaxonomyCategory`).
  category: text((p: CanonicalProduct) => p.category?.name ?? null),
  'category.fullName': text((p: CanonicalProduct) => p.category?.fullName ?? null),
  'category.id': text((p: CanonicalProduct) => p.category?.id ?? null),
  // Handles of the product's collections (`Product.collections`).
  collections: { kind: 'list', read: (p: CanonicalProduct) => nonEmptyList(p.collections ?? []) },
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
export type ProductSourceField = keyof typeof PRODUCT_SOURCE_FIELDS | MetafieldSourceField;
export type VariantSourceField = keyof typeof VARIANT_SOURCE_FIELDS | MetafieldSourceField;

/**
 * The namespace and key of a `metafields.<namespace>.<key>` source, or null for another field.
 * Namespaces and keys hold no dots (letters, digits, `-`, `_`, and `$app:` for app namespaces),
 * so the name splits in three; the parts are checked when the file is read.
 */
export function metafieldSource(field: string): MetafieldSource | null {
  if (!field.startsWith(METAFIELD_PREFIX)) return null;
  const [namespace, key, ...rest] = field.slice(METAFIELD_PREFIX.length).split('.');
  if (namespace === undefined || key === undefined || rest.length > 0) return null;
  return { namespace, key };
}

/** The kind of a source field (`list` fields may only feed MULTI_SELECT attributes). */
export function sourceKind(level: 'product' | 'variant', field: string): SourceKind {
  if (metafieldSource(field)) return 'metafield';
  const fields: Record<string, SourceField<never>> = level === 'product'
    ? PRODUCT_SOURCE_FIELDS
    : VARIANT_SOURCE_FIELDS;
  const found = fields[field];
  if (!found) throw new Error(`unknown ${level} field ${field}`);
  return found.kind;
}

/** Reads a product-level source field of the canonical product. */
export function readProductField(product: CanonicalProduct, field: ProductSourceField) {
  const metafield = metafieldSource(field);
  if (metafield) return readMetafield(product.metafields, metafield);
  return PRODUCT_SOURCE_FIELDS[field as keyof typeof PRODUCT_SOURCE_FIELDS].read(product);
}

/** Reads a variant-level source field of a canonical variant. */
export function readVariantField(variant: CanonicalVariant, field: VariantSourceField) {
  const metafield = metafieldSource(field);
  if (metafield) return readMetafield(variant.metafields, metafield);
  return VARIANT_SOURCE_FIELDS[field as keyof typeof VARIANT_SOURCE_FIELDS].read(variant);
}

/**
 * A metafield's value: its text, or for a `list.*` type the items of its JSON array (numbers
 * and objects as JSON text). Missing, empty, or a list that is not valid JSON: null.
 */
export function readMetafield(
  metafields: Record<string, CanonicalMetafield | null> | undefined,
  source: MetafieldSource,
): string | string[] | null {
  const metafield = metafields?.[`${source.namespace}.${source.key}`] ?? null;
  if (metafield === null) return null;
  if (!metafield.type.startsWith('list.')) return nonEmpty(metafield.value);
  let items: unknown;
  try {
    items = JSON.parse(metafield.value);
  } catch {
    return null;
  }
  if (!Array.isArray(items)) return null;
  return nonEmptyList(items.map((item) => (typeof item === 'string' ? item : JSON.stringify(item))));
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
