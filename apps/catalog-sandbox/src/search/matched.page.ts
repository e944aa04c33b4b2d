import type { StoredProduct } from '../products/stored-product.js';
import type { SearchPage, TieShuffle } from './indexed-range.page.js';
import type { PageRequest } from './pagination.js';
import type { ProductPredicate } from './product-filter.matcher.js';

/**
 * One page of the candidates that pass `matcher`, for filters no index answers alone: every
 * candidate is tested (the total counts them all), but only references are kept; `arrange`
 * puts the matches in sort order (a sort, or nothing when the candidates come in order), and the
 * tie order is applied to the page and the whole runs of equal keys at its edges only.
 */
export function matchedPage(
  candidates: Iterable<StoredProduct>,
  matcher: ProductPredicate,
  arrange: (matches: StoredProduct[]) => void,
  sameKey: (a: StoredProduct, b: StoredProduct) => boolean,
  page: PageRequest,
  shuffle?: TieShuffle,
): SearchPage {
  let examined = 0;
  const matches: StoredProduct[] = [];
  for (const product of candidates) {
    examined += 1;
    if (matcher(product)) matches.push(product);
  }
  arrange(matches);
  const total = matches.length;
  if (page.limit === 0 || page.offset >= total) {
    shuffle?.([]);
    return { items: [], total, examined };
  }
  let from = page.offset;
  let to = Math.min(total, page.offset + page.limit);
  if (shuffle) {
    while (from > 0 && sameKey(matches[from - 1] as StoredProduct, matches[from] as StoredProduct)) from--;
    while (to < total && sameKey(matches[to - 1] as StoredProduct, matches[to] as StoredProduct)) to++;
  }
  const window = matches.slice(from, to);
  shuffle?.(window);
  const at = page.offset - from;
  return { items: window.slice(at, at + page.limit), total, examined };
}
