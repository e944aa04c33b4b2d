import type { CanonicalProduct } from './canonical-product.js';
import { readCanonicalProduct } from './canonical-product.reader.js';
import { CANONICAL_PRODUCT_QUERY } from './documents/canonical-product.query.js';
import type { ShopAdminClient } from './shop-admin.client.js';

/** The canonical read's requested cost (`canonical-product.query.ts`), for the cost pacer. */
export const CANONICAL_PRODUCT_COST = 962;

/**
 * Why: a webhook is only a notification, so every sync (webhook, resync, reconciliation) reads
 * the product's current state through this one query. Null when Shopify no longer has it.
 */
export async function fetchCanonicalProduct(
  admin: ShopAdminClient,
  productId: string,
): Promise<CanonicalProduct | null> {
  const data = await admin.request<unknown>(
    CANONICAL_PRODUCT_QUERY,
    { id: `gid://shopify/Product/${productId}` },
    CANONICAL_PRODUCT_COST,
  );
  return readCanonicalProduct(data);
}
