/**
 * The connector's Admin GraphQL read of one product (API 2026-07), validated against Shopify's
 * real schema by `canonical-product.query.spec.ts`. It asks for `$variants` variants (up to 250,
 * the default: the catalog takes at most 200 variants per parent, so a product with more is a
 * reported failure, and `variantsCount` says so without reading further) and, in the media
 * form, the first 100 media (ids, image URLs, in gallery order), so the media stage can tell
 * from the sync's own read whether a product's images changed (`CanonicalProduct.media`).
 * Requested cost (`canonicalReadCost`): 6 + 3 per variant asked, + 202 for the media; at most
 * 958, under Shopify's 1,000 per query. The sync asks for the variants it expects, not 250.
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

/** The document, with or without its media selection (one source, two forms). */
function canonicalProductDocument(media: string): string {
  return /* GraphQL */ `
  query CanonicalProduct($id: ID!, $variants: Int = 250) {
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
      }
      variantsCount {
        count
      }
      variants(first: $variants, sortKey: POSITION) {
        nodes {
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
        }
        pageInfo {
          hasNextPage
        }
      }
${media}    }
  }
`;
}

/** The canonical read with the product's first 100 media (the media stage is on). */
export const CANONICAL_PRODUCT_QUERY = canonicalProductDocument(MEDIA_SELECTION);

/** The canonical read without media (the media stage is off): 202 points less. */
export const CANONICAL_PRODUCT_NO_MEDIA_QUERY = canonicalProductDocument('');

/** The operation name, for logs and the Shopify sandbox's request log. */
export const CANONICAL_PRODUCT_OPERATION = 'CanonicalProduct';

/** Variables of `CANONICAL_PRODUCT_QUERY`. */
export interface CanonicalProductVariables {
  /** The product's gid. */
  id: string;
  /** How many variants to read (1 to 250; 250 when left out). */
  variants?: number;
}

/** Most variants one read asks for (a connection page). */
export const MAX_CANONICAL_VARIANTS = 250;

/** The requested cost Shopify computes for a read of `variants` variants, with or without media. */
export function canonicalReadCost(variants: number, media: boolean): number {
  return 6 + 3 * variants + (media ? 202 : 0);
}
