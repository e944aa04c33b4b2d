import { esc, page, scrollTable } from './ui-html.js';
import { productLink } from './ui-product-link.js';
import { type ProductTitles, titleKey } from './ui-product-titles.service.js';
import { SELECTION_FORM, selectionBox } from './ui-resync-pages.js';
import type { ShopifyMatch } from './ui-shopify-search.service.js';
import { timeAgo } from './ui-time.js';

/** One product a search found, wherever it was found. */
export interface FoundProduct {
  shop: string;
  productId: string;
  title: string | null;
  /** Named by the connector's own tables (its id, a supplierSku, a skuId, or its stored title). */
  known: boolean;
  /** Among Shopify's matches. */
  inShopify: boolean;
}

/**
 * Why: one answer to one search. The connector's matches (by id, supplierSku or skuId, then by
 * stored title) and Shopify's are one list, each product once, saying where it was found; so the
 * page never says "No product found" above "2 products matched in Shopify".
 */
export function mergeFound(
  named: ReadonlyArray<{ shop: string; productId: string }>,
  titled: ReadonlyArray<{ shop: string; productId: string; title: string }>,
  shopify: { shop: string; matches: readonly ShopifyMatch[] } | null,
  titles: ProductTitles,
): FoundProduct[] {
  const found = new Map<string, FoundProduct>();
  const add = (shop: string, productId: string, title: string | null, where: 'known' | 'inShopify') => {
    const key = titleKey(shop, productId);
    const entry = found.get(key) ?? { shop, productId, title: null, known: false, inShopify: false };
    entry.title = entry.title ?? title ?? titles.get(key) ?? null;
    entry[where] = true;
    found.set(key, entry);
  };
  for (const p of named) add(p.shop, p.productId, null, 'known');
  for (const p of titled) add(p.shop, p.productId, p.title, 'known');
  for (const m of shopify?.matches ?? []) add(shopify?.shop as string, m.productId, m.title, 'inShopify');
  return [...found.values()];
}

/** Where the page's Shopify search stands: which shop was searched, or why none was. */
export interface ShopifySearchNote {
  shop: string | null;
  error: string | null;
}

/** What the products page shows: a search's one result list, or the recently synced products. */
export interface ProductsView {
  shops: readonly string[];
  query: string;
  shop: string | null;
  /** The search's products; null without a query. */
  found: FoundProduct[] | null;
  shopify: ShopifySearchNote | null;
  /** One page of the products synced most recently; null for a search. */
  recent: {
    products: ReadonlyArray<{ shop: string; productId: string; syncedAt: Date; deleted: boolean }>;
    page: number;
    more: boolean;
  } | null;
  titles: ProductTitles;
  now: number;
}

const STYLE = `<style>
form.search{display:flex;flex-wrap:wrap;gap:.6rem;align-items:end;margin-bottom:1rem}
form.search label{display:flex;flex-direction:column} ul.results li{margin:.25rem 0}
nav.pages{margin:.6rem 0;display:flex;gap:1rem}
</style>`;

/**
 * Why: the products page. Without a query: the products synced most recently, with their
 * titles, a page at a time. With one: the connector's products by id, supplierSku, skuId or
 * title and Shopify's search (in the chosen shop, or the only one) as one list.
 */
export function productsPage(view: ProductsView, csrf: string): string {
  const options = [`<option value="">Every shop</option>`]
    .concat(view.shops.map((s) => `<option${s === view.shop ? ' selected' : ''}>${esc(s)}</option>`))
    .join('');
  const any = (view.found?.length ?? 0) > 0 || (view.recent?.products.length ?? 0) > 0;
  return page(
    'Products',
    `${STYLE}<form class="search" method="get" action="/admin/ui/products" role="search">
<label for="q">Title, Shopify product id, supplierSku or skuId <input id="q" name="q" value="${esc(view.query)}" required maxlength="200"></label>
<label for="shop">Shop <select id="shop" name="shop">${options}</select></label>
<button type="submit">Search</button></form>
<p class="muted" style="overflow-wrap:anywhere">Titles are searched among the connector's products and in Shopify (in the chosen shop); <code>handle:</code> or <code>sku:</code> searches that field in Shopify.</p>${
      any ? SELECTION_FORM : ''
    }${view.found === null ? recentList(view) : foundList(view, view.found)}`,
    csrf,
  );
}

function foundList(view: ProductsView, found: readonly FoundProduct[]): string {
  const count =
    found.length === 0
      ? `No product found for <strong>${esc(view.query)}</strong>.`
      : `${found.length} product${found.length === 1 ? '' : 's'} found for <strong>${esc(view.query)}</strong>.`;
  const items = found
    .map((p) => {
      const where = [p.known ? 'known to the connector' : '', p.inShopify ? 'in Shopify' : '']
        .filter(Boolean)
        .join(', ');
      const href = `/admin/ui/products/${esc(p.productId)}?shop=${encodeURIComponent(p.shop)}`;
      return `<li data-product="${esc(p.productId)}">${selectionBox(p)} <a href="${href}">${esc(p.title ?? `Product ${p.productId}`)}</a> <span class="muted">product ${esc(p.productId)}, ${esc(p.shop)}; ${esc(where)}</span></li>`;
    })
    .join('');
  return `<p role="status">${count}</p>${shopifyNote(view.shopify)}${found.length > 0 ? `<ul class="results">${items}</ul>` : ''}`;
}

function shopifyNote(note: ShopifySearchNote | null): string {
  if (note === null) return '';
  if (note.shop === null)
    return '<p class="muted shopify-note">Shopify was not searched: choose a shop to search its products there too.</p>';
  if (note.error !== null)
    return `<p class="error shopify-note">Shopify's search in ${esc(note.shop)} failed (${esc(note.error)}): only the connector's products are listed.</p>`;
  return '';
}

function recentList(view: ProductsView): string {
  const recent = view.recent;
  if (recent === null) return '';
  const rows = recent.products
    .map(
      (p) =>
        `<tr data-product="${esc(p.productId)}"><td>${selectionBox(p)} ${productLink(p.shop, p.productId, view.titles)}${
          p.deleted ? ' <span class="muted">(deleted in Shopify)</span>' : ''
        }</td><td class="opt">${esc(p.shop)}</td><td class="synced">${timeAgo(p.syncedAt, view.now)}</td></tr>`,
    )
    .join('');
  const keep = view.shop ? `&amp;shop=${encodeURIComponent(view.shop)}` : '';
  const links = [
    recent.page > 1 ? `<a href="/admin/ui/products?page=${recent.page - 1}${keep}" rel="prev">Newer</a>` : '',
    recent.more ? `<a href="/admin/ui/products?page=${recent.page + 1}${keep}" rel="next">Older</a>` : '',
  ].filter(Boolean);
  return `<h2>Recently synced</h2>${scrollTable(
    `<table class="recent"><thead><tr><th scope="col">Product</th><th scope="col" class="opt">Shop</th><th scope="col">Last synced</th></tr></thead>
<tbody>${rows || '<tr><td colspan="3" class="muted">No product synced yet.</td></tr>'}</tbody></table>`,
    'Recently synced products',
  )}${links.length > 0 ? `<nav class="pages" aria-label="Pages">${links.join('')} <span class="muted">page ${recent.page}</span></nav>` : ''}`;
}
