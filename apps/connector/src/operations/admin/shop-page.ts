/** A page of shops: where it starts and how long it is, which state, which domains. */
export interface ShopPageRequest {
  state?: string;
  q?: string;
  limit?: number;
  offset?: number;
  page?: number;
}

/** The shops a page shows, how many match, and every shop's count per state (before the filter). */
export interface ShopPage<T> {
  shops: T[];
  total: number;
  offset: number;
  limit: number;
  counts: Record<string, number>;
}

export const DEFAULT_SHOP_PAGE = 50;
export const MAX_SHOP_PAGE = 500;

/**
 * Why: with 200 shops the overview, the shops page and `connector shops` must show the shops
 * that need a look first and stay readable: shops sorted worst first (`states` lists the states
 * worst first; an unlisted state comes last), then by domain; filtered by state and by a part of
 * the domain (any case); then one page (`offset`, else `page` from 1, of `limit`, 50 by default).
 * The counts per state are of every shop, so a page can say "3 failing, 5 degraded, 192 healthy".
 */
export function shopPage<T extends { shop: string; state: string }>(
  shops: readonly T[],
  states: readonly string[],
  request: ShopPageRequest,
): ShopPage<T> {
  const rank = (state: string) => {
    const at = states.indexOf(state);
    return at < 0 ? states.length : at;
  };
  const counts: Record<string, number> = Object.fromEntries(states.map((state) => [state, 0]));
  for (const shop of shops) counts[shop.state] = (counts[shop.state] ?? 0) + 1;
  const q = request.q?.trim().toLowerCase() ?? '';
  const matching = shops
    .filter((shop) => request.state === undefined || shop.state === request.state)
    .filter((shop) => q === '' || shop.shop.toLowerCase().includes(q))
    .sort((a, b) => rank(a.state) - rank(b.state) || a.shop.localeCompare(b.shop));
  const limit = request.limit ?? DEFAULT_SHOP_PAGE;
  const offset = request.offset ?? ((request.page ?? 1) - 1) * limit;
  return { shops: matching.slice(offset, offset + limit), total: matching.length, offset, limit, counts };
}
