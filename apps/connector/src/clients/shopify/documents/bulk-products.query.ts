/**
 * The whole shop's products as one bulk query (run by `bulkOperationRunQuery`, never sent as a
 * query of its own): the canonical read's fields (`canonical-product.query.ts`) for every
 * product, its variants and its media on lines of their own (`__parentId`). Bulk queries read
 * connections through `edges { node }`, take no page sizes and are not cost-limited; three
 * connections nested two deep are within Shopify's limits (five, depth two).
 */
export const BULK_PRODUCTS_QUERY = /* GraphQL */ `
  query ConnectorBulkProducts {
    products {
      edges {
        node {
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
          variants {
            edges {
              node {
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
            }
          }
          media {
            edges {
              node {
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
      }
    }
  }
`;
