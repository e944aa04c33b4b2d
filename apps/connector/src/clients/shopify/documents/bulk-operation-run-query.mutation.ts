/**
 * Starts a bulk query. `groupObjects: false` (the default since 2026-01): ungrouped output is
 * Shopify's faster and more reliable mode, and the reader does not rely on grouping. Requested
 * cost: 10.
 */
export const BULK_OPERATION_RUN_QUERY_MUTATION = /* GraphQL */ `
  mutation ConnectorBulkRunQuery($query: String!) {
    bulkOperationRunQuery(query: $query, groupObjects: false) {
      bulkOperation {
        id
        status
      }
      userErrors {
        field
        message
        code
      }
    }
  }
`;

/** `bulkOperationRunQuery`'s requested cost, for the cost pacer. */
export const BULK_OPERATION_RUN_QUERY_COST = 10;
