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
