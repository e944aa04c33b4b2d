/**
 * Products by id only, in a stable order, optionally filtered (`updated_at:>='…'`). Requested
 * cost: 2 + one point per product (scalars cost nothing), 252 for a page of 250.
 */
export const PRODUCT_IDS_QUERY = `
query ConnectorProductIds($first: Int!, $after: String, $query: String, $sortKey: ProductSortKeys!) {
  products(first: $first, after: $after, query: $query, sortKey: $sortKey) {
    nodes { legacyResourceId updatedAt }
    pageInfo { hasNextPage endCursor }
  }
}`;
