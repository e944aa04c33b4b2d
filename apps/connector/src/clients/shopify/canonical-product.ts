/**
 * The canonical Shopify product the sync works on: the connector's Admin GraphQL read
 * (`canonical-product.query.ts`, API 2026-07), with the same field names, connections flattened
 * to arrays. Mapping files name these fields. Every id is a string (gids, and
 * `legacyResourceId` as decimal digits): Shopify ids can exceed 2^53, so never a JS number.
 */
export interface CanonicalProduct {
  /** `gid://shopify/Product/<digits>` */
  id: string;
  /** The numeric id as decimal digits (GraphQL `UnsignedInt64`, a string). */
  legacyResourceId: string;
  title: string;
  handle: string;
  /** `""` when the merchant left it empty. */
  vendor: string;
  /** `""` when the merchant left it empty. */
  productType: string;
  /** GraphQL `HTML!`: `""` when there is no description. */
  descriptionHtml: string;
  status: CanonicalProductStatus;
  tags: string[];
  seo: { title: string | null; description: string | null };
  /** ISO 8601 (GraphQL `DateTime`). */
  createdAt: string;
  updatedAt: string;
  /** True when the product has only Shopify's default variant ("Default Title"): a simple product. */
  hasOnlyDefaultVariant: boolean;
  options: CanonicalOption[];
  /** The product's variants in `position` order (the read's first page; see `variantsCount`). */
  variants: CanonicalVariant[];
  /** How many variants the product has in Shopify, which may be more than `variants` holds. */
  variantsCount: number;
  /**
   * The product's images (videos and 3D models left out) in gallery order, when the read holds
   * all its media (at most 100); absent when it did not ask for them or the product has more.
   */
  media?: CanonicalMedia[];
  /**
   * The product metafields the shop's mapping reads, by `<namespace>.<key>` (null: the product
   * has none); absent when the read did not ask for metafields.
   */
  metafields?: Record<string, CanonicalMetafield | null>;
  /** Shopify's standard product category (null: none set); absent when not asked for. */
  category?: CanonicalCategory | null;
  /** Handles of the collections the product is in (custom and smart); absent when not asked for. */
  collections?: string[];
}

/** A metafield's value as Shopify stores it (always text; `list.*` types hold a JSON array). */
export interface CanonicalMetafield {
  value: string;
  /** The metafield type, e.g. `single_line_text_field`, `list.single_line_text_field`. */
  type: string;
}

/** A category of Shopify's standard product taxonomy (`TaxonomyCategory`). */
export interface CanonicalCategory {
  /** `gid://shopify/TaxonomyCategory/aa-1-13-8` */
  id: string;
  /** `T-Shirts` */
  name: string;
  /** `Apparel & Accessories > Clothing > Clothing Tops > T-Shirts` */
  fullName: string;
}

export type CanonicalProductStatus = 'ACTIVE' | 'ARCHIVED' | 'DRAFT' | 'UNLISTED';

export interface CanonicalOption {
  /** `gid://shopify/ProductOption/<digits>` */
  id: string;
  name: string;
  position: number;
  values: string[];
  /** The values with their ProductOptionValue gids (which survive a rename), in `values` order. */
  optionValues?: Array<{ id: string; name: string }>;
}

export interface CanonicalVariant {
  /** `gid://shopify/ProductVariant/<digits>` */
  id: string;
  legacyResourceId: string;
  title: string;
  sku: string | null;
  barcode: string | null;
  /** GraphQL `Money`: a decimal string without currency, e.g. `"19.99"`. */
  price: string;
  compareAtPrice: string | null;
  position: number;
  updatedAt: string;
  /**
   * `optionValueId`: the ProductOptionValue gid, which survives a rename (what groups a product
   * over 200 variants); absent where a read did not ask for it.
   */
  selectedOptions: Array<{ name: string; value: string; optionValueId?: string }>;
  /** Inventory items sharing this variant's SKU elsewhere in the shop (`inventoryItem.duplicateSkuCount`). */
  duplicateSkuCount: number;
  /** The variant metafields the mapping reads (see `CanonicalProduct.metafields`). */
  metafields?: Record<string, CanonicalMetafield | null>;
}

export interface CanonicalMedia {
  id: string;
  alt: string | null;
  url: string | null;
}

/** Shopify's placeholder option of a product without options. */
export const DEFAULT_OPTION = { name: 'Title', value: 'Default Title' } as const;

/**
 * Whether the product is a simple product: only Shopify's default variant. Trusts
 * `hasOnlyDefaultVariant`, and also recognises the placeholder option itself.
 */
export function isSimpleProduct(product: CanonicalProduct): boolean {
  if (product.hasOnlyDefaultVariant) return true;
  if (product.variantsCount !== 1 || product.variants.length !== 1) return false;
  const options = product.variants[0]?.selectedOptions ?? [];
  return (
    options.length === 0 ||
    (options.length === 1 &&
      options[0]?.name === DEFAULT_OPTION.name &&
      options[0]?.value === DEFAULT_OPTION.value)
  );
}

/** The numeric part of a Shopify gid (`gid://shopify/Product/123` -> `"123"`), or the value itself. */
export function legacyIdOf(id: string): string {
  const match = /^gid:\/\/shopify\/[A-Za-z]+\/(\d+)(?:\?.*)?$/.exec(id);
  if (match) return match[1] as string;
  if (/^\d+$/.test(id)) return id;
  throw new Error(`not a Shopify id: "${id}"`);
}
