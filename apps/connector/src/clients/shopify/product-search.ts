import {
  PRODUCT_SEARCH_COST,
  PRODUCT_SEARCH_FIRST,
  PRODUCT_SEARCH_QUERY,
} from './documents/product-search.query.js';
import type { ShopAdminClient } from './shop-admin.client.js';

/** One of Shopify's matches: its numeric id, title and handle. */
export interface SearchedProduct {
  productId: string;
  title: string;
  handle: string;
}

/**
 * Why: the one place `PRODUCT_SEARCH_QUERY` runs: the first products (10) a Shopify search
 * `query` finds, 12 points reserved in the shop's bucket.
 */
export async function searchProducts(
  admin: Pick<ShopAdminClient, 'request'>,
  query: string,
): Promise<SearchedProduct[]> {
  const answer = await admin.request<{
    products: { nodes: Array<{ legacyResourceId: string; title: string; handle: string }> };
  }>(PRODUCT_SEARCH_QUERY, { first: PRODUCT_SEARCH_FIRST, query }, PRODUCT_SEARCH_COST);
  return answer.products.nodes.map((n) => ({
    productId: n.legacyResourceId,
    title: n.title,
    handle: n.handle,
  }));
}
