/**
 * One bulk operation's state, polled until it ends: `url` of a completed run, `partialDataUrl`
 * and `errorCode` of a failed one. Requested cost: 1.
 */
export const BULK_OPERATION_QUERY = /* GraphQL */ `
  query ConnectorBulkOperation($id: ID!) {
    bulkOperation(id: $id) {
      id
      status
      errorCode
      objectCount
      rootObjectCount
      url
      partialDataUrl
    }
  }
`;

/** `bulkOperation(id)`'s requested cost, for the cost pacer. */
export const BULK_OPERATION_COST = 1;
