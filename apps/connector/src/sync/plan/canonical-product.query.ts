/**
 * The connector's Admin GraphQL read of one product (API 2026-07), validated against Shopify's
 * real schema by `canonical-product.query.spec.ts`. One page of 250 variants is enough: the
 * catalog takes at most 200 variants per parent, so a product with more is a reported failure,
 * and `variantsCount` says so without reading further. Requested cost: about 760 points.
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
