import type { ShopAdminClient } from './shop-admin.client.js';

/** A variant as the canonical product read returns it. */
export interface ShopifyVariant {
  id: string;
  legacyResourceId: string;
  title: string;
  sku: string | null;
  barcode: string | null;
  price: string;
  compareAtPrice: string | null;
  position: number;
  inventoryQuantity: number | null;
  taxable: boolean;
  updatedAt: string;
  selectedOptions: Array<{ name: string; value: string }>;
}

/**
 * A product in the one canonical shape every path (webhook, resync, reconciliation) reads, with
 * all its variants. Field names are the Admin GraphQL API's, which the mapping file uses.
 */
export interface ShopifyProduct {
  id: string;
  legacyResourceId: string;
  title: string;
  handle: string;
  descriptionHtml: string;
  vendor: string;
  productType: string;
  status: 'ACTIVE' | 'ARCHIVED' | 'DRAFT' | 'UNLISTED';
  tags: string[];
  templateSuffix: string | null;
  createdAt: string;
  updatedAt: string;
  hasOnlyDefaultVariant: boolean;
  seo: { title: string | null; description: string | null };
  options: Array<{ id: string; name: string; position: number; values: string[] }>;
  variantsCount: { count: number };
  variants: ShopifyVariant[];
}

interface VariantPage {
  nodes: ShopifyVariant[];
  pageInfo: { hasNextPage: boolean; endCursor: string | null };
}

const VARIANT_FIELDS = `
fragment ConnectorVariant on ProductVariant {
  id legacyResourceId title sku barcode price compareAtPrice position inventoryQuantity taxable updatedAt
  selectedOptions { name value }
}`;

/**
 * The product and its first 100 variants in one query. Requested cost: product 1, seo 1,
 * options 1, variantsCount 1, variants 2 + 100 x (1 + selectedOptions 1) = 206 points, well
 * under Shopify's single-query limit of 1,000. Media and metafields join here when their issues
 * need them (keep the sum under 1,000).
 */
export const PRODUCT_QUERY = `
query ConnectorProduct($id: ID!) {
  product(id: $id) {
    id legacyResourceId title handle descriptionHtml vendor productType status tags templateSuffix
    createdAt updatedAt hasOnlyDefaultVariant
    seo { title description }
    options { id name position values }
    variantsCount { count }
    variants(first: 100, sortKey: POSITION) {
      nodes { ...ConnectorVariant }
      pageInfo { hasNextPage endCursor }
    }
  }
}
${VARIANT_FIELDS}`;
export const PRODUCT_QUERY_COST = 206;

/** Further variant pages (101 and up), by cursor: 1 + 2 + 100 x 2 = 203 points. */
export const VARIANT_PAGE_QUERY = `
query ConnectorProductVariants($id: ID!, $after: String!) {
  product(id: $id) {
    variants(first: 100, after: $after, sortKey: POSITION) {
      nodes { ...ConnectorVariant }
      pageInfo { hasNextPage endCursor }
    }
  }
}
${VARIANT_FIELDS}`;
export const VARIANT_PAGE_QUERY_COST = 203;

type ProductAnswer = { product: (Omit<ShopifyProduct, 'variants'> & { variants: VariantPage }) | null };
type PageAnswer = { product: { variants: VariantPage } | null };

/** `gid://shopify/Product/<id>` */
export function productGid(productId: string): string {
  return `gid://shopify/Product/${productId}`;
}

/**
 * Reads a product's current state: the canonical query, then further variant pages by cursor.
 * Resolves to null when the product does not exist (deleted).
 */
export async function readProduct(admin: ShopAdminClient, productId: string): Promise<ShopifyProduct | null> {
  const id = productGid(productId);
  const first = await admin.request<ProductAnswer>(PRODUCT_QUERY, { id }, PRODUCT_QUERY_COST);
  if (first.product === null) return null;
  const variants = [...first.product.variants.nodes];
  let page = first.product.variants.pageInfo;
  while (page.hasNextPage && page.endCursor !== null) {
    const next = await admin.request<PageAnswer>(
      VARIANT_PAGE_QUERY,
      { id, after: page.endCursor },
      VARIANT_PAGE_QUERY_COST,
    );
    if (next.product === null) return null;
    variants.push(...next.product.variants.nodes);
    page = next.product.variants.pageInfo;
  }
  return { ...first.product, variants };
}
