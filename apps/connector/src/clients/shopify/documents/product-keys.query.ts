/**
 * Products with the keys linking matches on (each variant's SKU and barcode), a few per page:
 * requested cost first x (1 + variants 2 + 100 x 1) + 2, 826 for 8 products, under Shopify's
 * single-query limit of 1,000. Variants past the first 100 are not linked (the sync creates them).
 */
export const PRODUCT_KEYS_QUERY = `
query ConnectorProductKeys($first: Int!, $after: String) {
  products(first: $first, after: $after, sortKey: ID) {
    nodes {
      legacyResourceId updatedAt hasOnlyDefaultVariant
      variants(first: 100, sortKey: POSITION) { nodes { legacyResourceId sku barcode } }
    }
    pageInfo { hasNextPage endCursor }
  }
}`;
export const PRODUCT_KEYS_PAGE_SIZE = 8;
