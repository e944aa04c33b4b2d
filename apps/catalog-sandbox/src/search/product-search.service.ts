import { CatalogLimits, type ProductSearchResponse } from '#lib/catalog-contract';
import type { Account } from '../accounts/account.js';
import { ProductView } from '../products/product-view.js';
import type { StoredProduct } from '../products/stored-product.js';
import { pageOf, parsePagination } from './pagination.js';
import { compileProductMatcher } from './product-filter.matcher.js';
import { parseProductFilter } from './product-filter.parser.js';
import { planProductSearch, type SearchIndex } from './product-search.planner.js';
import { DEFAULT_PRODUCT_SORT, PRODUCT_SORT_FIELDS, productComparator, sameSortKey } from './product-sort.js';
import { readSearchBody } from './search-body.js';
import { parseSort } from './search-sort.js';

/** Page size when `pagination.limit` is omitted. */
export const PRODUCT_SEARCH_DEFAULT_LIMIT = 20;

export interface ProductSearchResult {
  response: ProductSearchResponse;
  /** How the search ran: the index used and how many records the matcher examined. */
  plan: { index: SearchIndex; examined: number };
}

/**
 * POST /v1/products/search over one account's products and variants. Records with equal sort
 * keys come in a new order on every request unless the account's `searchTieOrder` is `creation`.
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
  const matcher = compileProductMatcher(query, account, view);
  const plan = planProductSearch(query, sort, account.products);
  let examined = 0;
  const matches: StoredProduct[] = [];
  for (const product of plan.candidates) {
    examined += 1;
    if (matcher(product)) matches.push(product);
  }
  if (!plan.inSortOrder) matches.sort(productComparator(sort));
  if (account.behaviour.searchTieOrder === 'shuffled')
    account.tieOrder.shuffleTies(matches, sameSortKey(sort));
  const { items, pagination } = pageOf(matches, page);
  return {
    response: { products: items.map((p) => view.record(p)), pagination },
    plan: { index: plan.index, examined },
  };
}

function parseSortOrDefault(raw: unknown) {
  return parseSort(raw, PRODUCT_SORT_FIELDS) ?? DEFAULT_PRODUCT_SORT;
}
