/**
 * Every product id of the shop as one bulk query (run by `bulkOperationRunQuery`): the
 * reconciliation's scan for products deleted without a webhook, one line per product.
 */
export const BULK_PRODUCT_IDS_QUERY = /* GraphQL */ `
  query ConnectorBulkProductIds {
    products {
      edges {
        node {
          id
          legacyResourceId
        }
      }
    }
  }
`;
