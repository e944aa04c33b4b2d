import { DEFAULT_SHOP_PAGE, MAX_SHOP_PAGE, type ShopPageRequest } from '../admin/shop-page.js';
import { esc } from './ui-html.js';

/** What a shops page's address asks for, as given (a page reads a missing or odd one as "any"). */
export interface UiShopPageParams {
  state?: string;
  q?: string;
  page?: string;
  limit?: string;
}

/** The page of shops a web page's address asks for: a known state, a search, a page from 1. */
export function uiShopPageRequest(params: UiShopPageParams, states: readonly string[]): ShopPageRequest {
  const page = Number(params.page);
  const limit = Number(params.limit);
  const q = params.q?.trim().slice(0, 255) ?? '';
  return {
    state: params.state !== undefined && states.includes(params.state) ? params.state : undefined,
    q: q === '' ? undefined : q,
    limit: Number.isInteger(limit) && limit >= 1 && limit <= MAX_SHOP_PAGE ? limit : DEFAULT_SHOP_PAGE,
    page: Number.isInteger(page) && page >= 1 ? page : 1,
  };
}

/** A page of shops as the web pages show it: which shops, how many match, the counts of all. */
export interface UiShopPage {
  total: number;
  offset: number;
  limit: number;
  counts: Record<string, number>;
}

/**
 * Why: with 200 shops a page lists 50, worst first; this draws what goes above the table (every
 * shop's count per state, each a link to its filter; a form to filter by state and search by
 * domain) and the links to the other pages below it.
 */
export function uiShopPaging(
  action: string,
  request: ShopPageRequest,
  page: UiShopPage,
  states: readonly string[],
): { above: string; below: string } {
  const address = (changes: { state?: string | undefined; page?: number }) => {
    const params = new URLSearchParams();
    const state = 'state' in changes ? changes.state : request.state;
    if (state !== undefined) params.set('state', state);
    if (request.q !== undefined) params.set('q', request.q);
    if (request.limit !== undefined && request.limit !== DEFAULT_SHOP_PAGE)
      params.set('limit', String(request.limit));
    if (changes.page !== undefined && changes.page > 1) params.set('page', String(changes.page));
    const query = params.toString();
    return esc(query === '' ? action : `${action}?${query}`);
  };
  const counts = states
    .map(
      (state) =>
        `<a class="state-${esc(state)}" data-state-count="${esc(state)}" href="${address({ state })}">${esc(page.counts[state] ?? 0)} ${esc(state.replaceAll('_', ' '))}</a>`,
    )
    .join(', ');
  const options = ['', ...states]
    .map(
      (state) =>
        `<option value="${esc(state)}"${state === (request.state ?? '') ? ' selected' : ''}>${esc(state === '' ? 'any state' : state.replaceAll('_', ' '))}</option>`,
    )
    .join('');
  const above = `<p class="shop-counts">${counts}</p>
<form method="get" action="${esc(action)}" class="shop-filter"><label>State <select name="state">${options}</select></label>
<label>Domain <input name="q" type="search" maxlength="255" value="${esc(request.q ?? '')}"></label>${
    request.limit !== undefined && request.limit !== DEFAULT_SHOP_PAGE
      ? `<input type="hidden" name="limit" value="${esc(request.limit)}">`
      : ''
  } <button type="submit">Filter</button></form>`;
  const pages = Math.max(1, Math.ceil(page.total / page.limit));
  const current = Math.floor(page.offset / page.limit) + 1;
  const first = page.total === 0 ? 0 : page.offset + 1;
  const last = Math.min(page.total, page.offset + page.limit);
  const links = Array.from({ length: pages }, (_, i) => i + 1)
    .map((n) =>
      n === current
        ? `<strong aria-current="page">${n}</strong>`
        : `<a data-page="${n}" href="${address({ page: n })}">${n}</a>`,
    )
    .join(' ');
  const below = `<p class="shop-pages">Shops ${first} to ${last} of ${page.total}${pages > 1 ? `; pages: ${links}` : ''}</p>`;
  return { above, below };
}
