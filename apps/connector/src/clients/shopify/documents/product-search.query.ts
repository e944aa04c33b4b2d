/**
 * Why: the operators' product search by title, handle or SKU (issue 33): one page of a Shopify
 * product search, ids, titles and handles only. Requested cost: 2 + one point per product, 12
 * for the 10 a search shows.
 */
export const PRODUCT_SEARCH_QUERY = `
query ConnectorProductSearch($first: Int!, $query: String!) {
  products(first: $first, query: $query) {
    nodes { legacyResourceId title handle }
  }
}`;

/** How many products one search shows, and the cost it reserves in the shop's bucket. */
export const PRODUCT_SEARCH_FIRST = 10;
export const PRODUCT_SEARCH_COST = PRODUCT_SEARCH_FIRST + 2;
