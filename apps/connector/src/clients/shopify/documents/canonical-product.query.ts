/**
 * The connector's Admin GraphQL read of one product (API 2026-07), validated against Shopify's
 * real schema by `canonical-product.query.spec.ts`. One page of 250 variants is enough: the
 * catalog takes at most 200 variants per parent, so a product with more is a reported failure,
 * and `variantsCount` says so without reading further. The first 100 media (ids, image URLs,
 * in gallery order) come along, so the media stage can tell from the sync's own read whether a
 * product's images changed (`CanonicalProduct.media`) instead of reading them again. Requested
 * cost: about 962 points (760 + 2 + 100 × (media + image)), under Shopify's 1,000 per query.
 */
export const CANONICAL_PRODUCT_QUERY = /* GraphQL */ `
  query CanonicalProduct($id: ID!) {
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
      variants(first: 250, sortKey: POSITION) {
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
    }
  }
`;

/** The operation name, for logs and the Shopify sandbox's request log. */
export const CANONICAL_PRODUCT_OPERATION = 'CanonicalProduct';

/** Variables of `CANONICAL_PRODUCT_QUERY`. */
export interface CanonicalProductVariables {
  /** The product's gid. */
  id: string;
}
