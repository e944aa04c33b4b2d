import { CatalogLimits, type ProductSearchResponse } from '#lib/catalog-contract';
import type { Account } from '../accounts/account.js';
import { ProductView } from '../products/product-view.js';
import type { StoredProduct } from '../products/stored-product.js';
import {
  indexedExclusions,
  indexedRangePage,
  reverseRuns,
  type SearchPage,
  type TieShuffle,
} from './indexed-range.page.js';
import { matchedPage } from './matched.page.js';
import { type PageRequest, parsePagination } from './pagination.js';
import { compileProductMatcher } from './product-filter.matcher.js';
import { parseProductFilter } from './product-filter.parser.js';
import { planProductSearch, type SearchIndex, type SearchPlan } from './product-search.planner.js';
import {
  DEFAULT_PRODUCT_SORT,
  PRODUCT_SORT_FIELDS,
  type ProductSort,
  productComparator,
  sameSortKey,
} from './product-sort.js';
import { readSearchBody } from './search-body.js';
import { parseSort } from './search-sort.js';

/** Page size when `pagination.limit` is omitted. */
export const PRODUCT_SEARCH_DEFAULT_LIMIT = 20;

export interface ProductSearchResult {
  response: ProductSearchResponse;
  /** How the search ran: the index used and how many records it read (matched or paged). */
  plan: { index: SearchIndex; examined: number };
}

/**
 * POST /v1/products/search over one account's products and variants. Records with equal sort
 * keys come in a new order on every request unless the account's `searchTieOrder` is `creation`.
 * A createdAt range (or the whole createdAt index) sorted by createdAt, with at most skuId or
 * supplierSku exclusions besides, is counted and paged by index position: its cost follows the
 * page, not the range. Any other filter tests every candidate, on the stored values; record
 * views are built for the page only.
 */
export function searchProducts(account: Account, body: unknown): ProductSearchResult {
  const request = readSearchBody(body);
  const query = parseProductFilter(request.filter);
  const sort = parseSortOrDefault(request.sort);
  const page = parsePagination(request.pagination, {
    defaultLimit: PRODUCT_SEARCH_DEFAULT_LIMIT,
    maxLimit: CatalogLimits.SEARCH_PAGE_SIZE_MAX,
  });
  const view = new ProductView(account);
  const plan = planProductSearch(query, sort, account.products);
  const sameKey = sameSortKey(sort);
  const shuffle: TieShuffle | undefined =
    account.behaviour.searchTieOrder === 'shuffled'
      ? (window) => account.tieOrder.shuffleTies(window, sameKey)
      : undefined;
  const { items, total, examined } =
    indexedPage(account, plan, page, shuffle) ??
    scannedPage(account, view, plan, { sort, sameKey }, page, shuffle);
  return {
    response: {
      products: items.map((p) => view.record(p)),
      pagination: {
        limit: page.limit,
        offset: page.offset,
        total,
        hasMore: page.offset + items.length < total,
      },
    },
    plan: { index: plan.index, examined },
  };
}

/** The page by index positions, when the createdAt index answers the whole filter in sort order. */
function indexedPage(
  account: Account,
  plan: SearchPlan,
  page: PageRequest,
  shuffle: TieShuffle | undefined,
): SearchPage | undefined {
  if (plan.index !== 'createdAt' || !plan.inSortOrder) return undefined;
  const excluded = indexedExclusions(plan.residual, account.products);
  if (!excluded) return undefined;
  return indexedRangePage(account.products.createdAtIndex, plan.range, plan.order, excluded, page, shuffle);
}

/** The page of the candidates that pass the filter's remaining conditions. */
function scannedPage(
  account: Account,
  view: ProductView,
  plan: SearchPlan,
  order: { sort: ProductSort; sameKey: (a: StoredProduct, b: StoredProduct) => boolean },
  page: PageRequest,
  shuffle: TieShuffle | undefined,
): SearchPage {
  const { sort, sameKey } = order;
  const matcher = compileProductMatcher(plan.residual, view);
  const store = account.products;
  switch (plan.index) {
    case 'createdAt': {
      const candidates = store.byCreatedAt(plan.range, plan.order);
      const arrange = !plan.inSortOrder
        ? sortBy(sort)
        : plan.order === 'DESC'
          ? reverseRuns // the index yields ties by descending seq; the search's tie break ascends
          : () => {};
      return matchedPage(candidates, matcher, arrange, sameKey, page, shuffle);
    }
    case 'scan':
      return matchedPage(store.all(), matcher, sortBy(sort), sameKey, page, shuffle);
    default:
      return matchedPage(plan.candidates, matcher, sortBy(sort), sameKey, page, shuffle);
  }
}

function sortBy(sort: ProductSort): (matches: StoredProduct[]) => void {
  const compare = productComparator(sort);
  return (matches) => {
    matches.sort(compare);
  };
}

function parseSortOrDefault(raw: unknown) {
  return parseSort(raw, PRODUCT_SORT_FIELDS) ?? DEFAULT_PRODUCT_SORT;
}
