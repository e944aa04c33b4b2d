import { Injectable } from '@nestjs/common';
import { type SearchedProduct, searchProducts } from '../../clients/shopify/product-search.js';
import { ShopifyAdmin } from '../../clients/shopify/shopify-admin.service.js';

/** One of Shopify's matches: its numeric id, title and handle. */
export type ShopifyMatch = SearchedProduct;

/**
 * Why: the operator's words as one Shopify search (pure, unit-tested): `title:`, `handle:` or
 * `sku:` followed by a value searches that field; anything else is one quoted phrase (Shopify's
 * default search: titles among others). Quotes and backslashes in the value are escaped.
 */
export function shopifySearchQuery(text: string): string {
  const quoted = (value: string) => `"${value.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`;
  const field = /^(title|handle|sku):\s*(.+)$/i.exec(text.trim());
  if (field) return `${(field[1] as string).toLowerCase()}:${quoted((field[2] as string).trim())}`;
  return quoted(text.trim());
}

/**
 * Why: the products page's Shopify side: one Admin GraphQL call per search, its requested cost
 * reserved in the shop's shared cost bucket by `ShopifyAdmin` like every other read.
 */
@Injectable()
export class UiShopifySearch {
  constructor(private readonly shopify: ShopifyAdmin) {}

  /** The first products Shopify's search finds for the operator's words. */
  async search(shop: string, text: string): Promise<ShopifyMatch[]> {
    return searchProducts(this.shopify.forShop(shop), shopifySearchQuery(text));
  }
}
