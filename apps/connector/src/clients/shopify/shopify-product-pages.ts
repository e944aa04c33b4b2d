import { PRODUCT_IDS_QUERY } from './documents/product-ids.query.js';
import { PRODUCT_KEYS_PAGE_SIZE, PRODUCT_KEYS_QUERY } from './documents/product-keys.query.js';
import type { ShopAdminClient } from './shop-admin.client.js';

/** One product as an id-only page lists it. */
export interface ListedProduct {
  /** Decimal digits (`legacyResourceId`): ids can pass 2^53, never a JS number. */
  productId: string;
  /** ISO 8601 */
  updatedAt: string;
}

export interface ProductPage<T> {
  items: T[];
  /** The cursor to ask the next page after; null when this was the last page. */
  next: string | null;
}

/** A product with its variants' match keys. */
export interface KeyedProduct extends ListedProduct {
  simple: boolean;
  variants: Array<{ variantId: string; sku: string | null; barcode: string | null }>;
}

interface Connection<N> {
  products: { nodes: N[]; pageInfo: { hasNextPage: boolean; endCursor: string | null } };
}

/** One id-only page after `after` (null: the first), sorted by id, or by `updatedAt` with a filter. */
export async function listProductPage(
  admin: ShopAdminClient,
  options: { after: string | null; first: number; query?: string; sortKey?: 'ID' | 'UPDATED_AT' },
): Promise<ProductPage<ListedProduct>> {
  const answer = await admin.request<Connection<{ legacyResourceId: string; updatedAt: string }>>(
    PRODUCT_IDS_QUERY,
    {
      first: options.first,
      after: options.after,
      query: options.query ?? null,
      sortKey: options.sortKey ?? 'ID',
    },
    options.first + 2,
  );
  const { nodes, pageInfo } = answer.products;
  return {
    items: nodes.map((n) => ({ productId: n.legacyResourceId, updatedAt: n.updatedAt })),
    next: pageInfo.hasNextPage ? pageInfo.endCursor : null,
  };
}

/** Every product of a pager, page by page (for walks that hold no persisted cursor). */
export async function* allPages<T>(
  page: (after: string | null) => Promise<ProductPage<T>>,
): AsyncGenerator<T[], void, undefined> {
  let after: string | null = null;
  do {
    const current: ProductPage<T> = await page(after);
    yield current.items;
    after = current.next;
  } while (after !== null);
}

/** One page of products with their variants' SKUs and barcodes. */
export async function listKeyedProductPage(
  admin: ShopAdminClient,
  after: string | null,
): Promise<ProductPage<KeyedProduct>> {
  type Node = {
    legacyResourceId: string;
    updatedAt: string;
    hasOnlyDefaultVariant: boolean;
    variants: { nodes: Array<{ legacyResourceId: string; sku: string | null; barcode: string | null }> };
  };
  const answer = await admin.request<Connection<Node>>(
    PRODUCT_KEYS_QUERY,
    { first: PRODUCT_KEYS_PAGE_SIZE, after },
    PRODUCT_KEYS_PAGE_SIZE * 103 + 2,
  );
  const { nodes, pageInfo } = answer.products;
  return {
    items: nodes.map((n) => ({
      productId: n.legacyResourceId,
      updatedAt: n.updatedAt,
      simple: n.hasOnlyDefaultVariant,
      variants: n.variants.nodes.map((v) => ({
        variantId: v.legacyResourceId,
        sku: v.sku,
        barcode: v.barcode,
      })),
    })),
    next: pageInfo.hasNextPage ? pageInfo.endCursor : null,
  };
}

/** Shopify's search syntax for "updated at or after": second precision, UTC. */
export function updatedSince(at: Date): string {
  return `updated_at:>='${new Date(Math.floor(at.getTime() / 1000) * 1000).toISOString().replace('.000Z', 'Z')}'`;
}
