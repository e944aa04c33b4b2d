/**
 * The connector's Admin GraphQL read of one product (API 2026-07), validated against Shopify's
 * real schema by `canonical-product.query.spec.ts`. It asks for `$variants` variants (up to 250,
 * the default: the catalog takes at most 200 variants per parent, so a product with more is a
 * reported failure, and `variantsCount` says so without reading further) and, in the media
 * form, the first 100 media (ids, image URLs, in gallery order), so the media stage can tell
 * from the sync's own read whether a product's images changed (`CanonicalProduct.media`).
 * Requested cost (`canonicalReadCost`): 7 + 3 per variant asked, + 202 for the media; at most
 * 959, under Shopify's 1,000 per query. The options' values come with their ids (they survive a
 * rename: what groups a product over 200 variants), and `endCursor` lets a product over 250
 * variants be read on (`canonical-variants.query.ts`). The sync asks for the variants it expects, not 250.
 * When the shop's mapping maps them (issue 30), the document also asks for product and variant
 * metafields, the standard product category and the collections (`canonicalProductDocument`,
 * `CanonicalSources`); all of it is `read_products` data.
 */
const MEDIA_SELECTION = /* GraphQL */ `
      media(first: 100, sortKey: POSITION) {
        nodes {
          id
          alt
          mediaContentType
          ... on MediaImage {
            image {
              url
            }
          }
        }
        pageInfo {
          hasNextPage
        }
      }
`;

/** A metafield a mapping reads: `metafields.<namespace>.<key>` (namespace and key as in the file). */
export interface MetafieldSource {
  namespace: string;
  key: string;
}

/**
 * The sources beyond the base fields that a shop's mapping reads (issue 30), so the read asks for
 * them only when the mapping uses them: metafields by level (each an alias `mf<i>` in this
 * order), Shopify's standard product category, the product's collections.
 */
export interface CanonicalSources {
  productMetafields: readonly MetafieldSource[];
  variantMetafields: readonly MetafieldSource[];
  category: boolean;
  collections: boolean;
}

/** A mapping that reads none of the optional sources. */
export const NO_EXTRA_SOURCES: CanonicalSources = {
  productMetafields: [],
  variantMetafields: [],
  category: false,
  collections: false,
};

/** Whether a read with these sources asks for anything beyond the base fields. */
export function usesExtraSources(sources: CanonicalSources): boolean {
  return (
    sources.productMetafields.length > 0 ||
    sources.variantMetafields.length > 0 ||
    sources.category ||
    sources.collections
  );
}

/** What one canonical read document asks for besides the product and its variants. */
export interface CanonicalDocumentOptions {
  media: boolean;
  sources?: CanonicalSources;
}

/** Collections asked for per read (`$collections`); a product in more is read again with 250. */
export const FIRST_READ_COLLECTIONS = 25;
/** Most collections one read asks for (a connection page). */
export const MAX_CANONICAL_COLLECTIONS = 250;

/**
 * Builds the canonical read document: one source for every form (with or without the media, and
 * the mapping's metafields, category and collections). Metafields are aliased `mf0`, `mf1`, … in
 * `sources` order per level; namespaces and keys were checked at boot (letters, digits, `-`, `_`,
 * `$app:`), and are escaped as GraphQL strings anyway.
 */
export function canonicalProductDocument(options: CanonicalDocumentOptions): string {
  const sources = options.sources ?? NO_EXTRA_SOURCES;
  const collectionsVariable = sources.collections ? ', $collections: Int = 25' : '';
  const extra = [
    ...metafieldSelections(sources.productMetafields, '      '),
    ...(sources.category ? [CATEGORY_SELECTION] : []),
    ...(sources.collections ? [COLLECTIONS_SELECTION] : []),
  ].join('');
  return /* GraphQL */ `
  query CanonicalProduct($id: ID!, $variants: Int = 250${collectionsVariable}) {
    product(id: $id) {
      id
      legacyResourceId
      title
      handle
      vendor
      productType
      descriptionHtml
      status
      tags
      seo {
        title
        description
      }
      createdAt
      updatedAt
      hasOnlyDefaultVariant
      options {
        id
        name
        position
        values
        optionValues {
          id
          name
        }
      }
      variantsCount {
        count
      }
      variants(first: $variants, sortKey: POSITION) {
${variantNodes(sources)}        pageInfo {
          hasNextPage
          endCursor
        }
      }
${extra}${options.media ? MEDIA_SELECTION : ''}    }
  }
`;
}

/** The selection of one variant (`nodes { ... }`), the same in the product read and its further pages. */
export function variantNodes(sources: CanonicalSources): string {
  const variantExtra = metafieldSelections(sources.variantMetafields, '          ').join('');
  return /* GraphQL */ `        nodes {
          id
          legacyResourceId
          title
          sku
          barcode
          price
          compareAtPrice
          position
          updatedAt
          selectedOptions {
            name
            value
          }
          inventoryItem {
            duplicateSkuCount
          }
${variantExtra}        }
`;
}

const CATEGORY_SELECTION = /* GraphQL */ `      category {
        id
        name
        fullName
      }
`;

const COLLECTIONS_SELECTION = /* GraphQL */ `      collections(first: $collections) {
        nodes {
          handle
        }
        pageInfo {
          hasNextPage
        }
      }
`;

/** `mf<i>: metafield(namespace: "...", key: "...") { value type }`, one per metafield. */
function metafieldSelections(metafields: readonly MetafieldSource[], indent: string): string[] {
  return metafields.map(
    (m, i) =>
      `${indent}${metafieldAlias(i)}: metafield(namespace: ${JSON.stringify(m.namespace)}, key: ${JSON.stringify(m.key)}) {\n` +
      `${indent}  value\n${indent}  type\n${indent}}\n`,
  );
}

/** The response key of the `index`-th metafield of a level. */
export function metafieldAlias(index: number): string {
  return `mf${index}`;
}

/** The canonical read with the product's first 100 media (the media stage is on). */
export const CANONICAL_PRODUCT_QUERY = canonicalProductDocument({ media: true });

/** The canonical read without media (the media stage is off): 202 points less. */
export const CANONICAL_PRODUCT_NO_MEDIA_QUERY = canonicalProductDocument({ media: false });

/** The operation name, for logs and the Shopify sandbox's request log. */
export const CANONICAL_PRODUCT_OPERATION = 'CanonicalProduct';

/** Variables of `CANONICAL_PRODUCT_QUERY` (and of every `canonicalProductDocument`). */
export interface CanonicalProductVariables {
  /** The product's gid. */
  id: string;
  /** How many variants to read (1 to 250; 250 when left out). */
  variants?: number;
  /** Forms reading collections: how many (1 to 250; 25 when left out). */
  collections?: number;
}

/** Most variants one read asks for (a connection page). */
export const MAX_CANONICAL_VARIANTS = 250;

/**
 * The requested cost Shopify computes for a read of `variants` variants, with or without media,
 * and the mapping's sources: 7 (the product, its options and their values, seo, the count, the
 * connection) + 3 per variant (+ 1 per variant and variant metafield) + 202
 * for the media + 1 per product metafield + 1 for the category + 2 + 1 per collection asked.
 * Checked against the Shopify sandbox's calculator by `canonical-read.medium.spec.ts`.
 */
export function canonicalReadCost(
  variants: number,
  media: boolean,
  sources: CanonicalSources = NO_EXTRA_SOURCES,
  collections = FIRST_READ_COLLECTIONS,
): number {
  return (
    7 +
    (3 + sources.variantMetafields.length) * variants +
    (media ? 202 : 0) +
    sources.productMetafields.length +
    (sources.category ? 1 : 0) +
    (sources.collections ? 2 + collections : 0)
  );
}
