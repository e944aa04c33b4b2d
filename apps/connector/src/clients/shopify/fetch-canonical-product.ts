import type { CanonicalProduct } from './canonical-product.js';
import { readCanonicalProduct } from './canonical-product.reader.js';
import {
  CANONICAL_PRODUCT_NO_MEDIA_QUERY,
  CANONICAL_PRODUCT_QUERY,
  canonicalReadCost,
  MAX_CANONICAL_VARIANTS,
} from './documents/canonical-product.query.js';
import type { ShopAdminClient } from './shop-admin.client.js';

/** Variants asked for a product the connector has not synced yet (most have fewer). */
export const FIRST_READ_VARIANTS = 50;
/** Variants asked beyond those last synced: a few added since cost no second read. */
const VARIANT_SLACK = 10;

/** What a read asks for: the variants the caller expects (null: unknown) and whether it needs the media. */
export interface CanonicalReadNeeds {
  expectedVariants: number | null;
  media: boolean;
}

/** A read's product and the requested cost of the queries it took (what the bucket was asked for). */
export interface CanonicalRead {
  product: CanonicalProduct | null;
  requestedCost: number;
}

/**
 * Why: a webhook is only a notification, so every sync (webhook, resync, reconciliation) reads
 * the product's current state through this one query, asking only for what it needs: the
 * variants it expects (those last synced plus a few, or `FIRST_READ_VARIANTS` for a new
 * product; read again with 250 when the product has more) and the media only when the media
 * stage is on. Shopify takes a query's requested cost from the bucket when it starts, so a
 * smaller ask is a faster sync under load. Null product when Shopify no longer has it.
 */
export async function fetchCanonicalProduct(
  admin: ShopAdminClient,
  productId: string,
  needs: CanonicalReadNeeds = { expectedVariants: null, media: true },
): Promise<CanonicalRead> {
  const first = Math.min(
    MAX_CANONICAL_VARIANTS,
    Math.max(
      1,
      needs.expectedVariants === null ? FIRST_READ_VARIANTS : needs.expectedVariants + VARIANT_SLACK,
    ),
  );
  let read = await readWith(admin, productId, first, needs.media);
  if (read.product !== null && read.product.variantsCount > first && first < MAX_CANONICAL_VARIANTS) {
    const again = await readWith(admin, productId, MAX_CANONICAL_VARIANTS, needs.media);
    read = { product: again.product, requestedCost: read.requestedCost + again.requestedCost };
  }
  return read;
}

async function readWith(
  admin: ShopAdminClient,
  productId: string,
  variants: number,
  media: boolean,
): Promise<CanonicalRead> {
  const requestedCost = canonicalReadCost(variants, media);
  const data = await admin.request<unknown>(
    media ? CANONICAL_PRODUCT_QUERY : CANONICAL_PRODUCT_NO_MEDIA_QUERY,
    { id: `gid://shopify/Product/${productId}`, variants },
    requestedCost,
  );
  return { product: readCanonicalProduct(data), requestedCost };
}
