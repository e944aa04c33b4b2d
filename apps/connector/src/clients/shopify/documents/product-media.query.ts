/**
 * The media job's Admin GraphQL read of a product's images (API 2026-07), in Shopify's gallery
 * order. Shopify allows 250 media per product, so one page holds them all. Requested cost about
 * 500 points (2 + 250 × (MediaImage + Image)). Videos and 3D models come back without `image`
 * and are left out by the reader.
 */
export const PRODUCT_MEDIA_QUERY = /* GraphQL */ `
  query ProductMedia($id: ID!) {
    product(id: $id) {
      id
      media(first: 250, sortKey: POSITION) {
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
      }
    }
  }
`;

/**
 * Which image each variant has of its own, read only when variants may get their own gallery
 * (`variantGalleries: 'own-image'`). A variant holds at most one media ("Currently the array is
 * limited to only one media object of type image", https://shopify.dev/changelog/new-variant-media-editing-methods-and-mime-type-field),
 * so `first: 1`. 200 variants (the catalog's limit per parent) cost about 800 points.
 */
export const VARIANT_MEDIA_QUERY = /* GraphQL */ `
  query VariantMedia($id: ID!) {
    product(id: $id) {
      id
      variants(first: 200, sortKey: POSITION) {
        nodes {
          id
          media(first: 1) {
            nodes {
              id
            }
          }
        }
      }
    }
  }
`;

/** Operation names, for logs and the Shopify sandbox's request log. */
export const PRODUCT_MEDIA_OPERATION = 'ProductMedia';
export const VARIANT_MEDIA_OPERATION = 'VariantMedia';
