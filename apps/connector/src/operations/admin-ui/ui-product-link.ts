import { esc } from './ui-html.js';
import { type ProductTitles, titleKey } from './ui-product-titles.service.js';

/** What a list page needs besides its rows: the Clock's now (relative times) and the products' titles. */
export interface ListContext {
  now: number;
  titles: ProductTitles;
}

/**
 * Why: wherever a list shows a Shopify product, it links to the product's page by its title with
 * the id beside it (operators know products by title, Shopify's admin by id); the id alone when
 * no title is stored.
 */
export function productLink(shop: string, productId: string, titles: ProductTitles): string {
  const href = `/admin/ui/products/${encodeURIComponent(productId)}?shop=${encodeURIComponent(shop)}`;
  const title = titles.get(titleKey(shop, productId));
  return title === undefined
    ? `<a class="product" href="${esc(href)}">${esc(productId)}</a>`
    : `<a class="product" href="${esc(href)}">${esc(title)}</a> <span class="muted product-id">${esc(productId)}</span>`;
}
