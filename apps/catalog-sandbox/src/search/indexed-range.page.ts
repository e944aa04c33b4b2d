import type { CreatedAtIndex, IndexSpan } from '../products/created-at-index.js';
import type { ProductStore, TimeRange } from '../products/product-store.js';
import type { StoredProduct } from '../products/stored-product.js';
import type { PageRequest } from './pagination.js';
import type { ProductFilterQuery } from './product-filter.parser.js';

/** One page of a search and the count of all its matches. */
export interface SearchPage {
  items: StoredProduct[];
  total: number;
  /** Records read to answer (the page, plus the ties around it). */
  examined: number;
}

/** Reorders runs of equal sort keys in a window of whole runs (the account's tie order). */
export type TieShuffle = (window: StoredProduct[]) => void;

/**
 * The records a filter excludes by skuId or supplierSku ($ne, $nin), found through those
 * indexes, when that is all the filter holds besides the createdAt range; undefined when any
 * other condition is left (the search must then test every record of the range).
 */
export function indexedExclusions(
  residual: ProductFilterQuery,
  store: ProductStore,
): StoredProduct[] | undefined {
  const { skuId, supplierSku, ...others } = residual;
  const othersEmpty = Object.values(others).every((v) => v === null || (Array.isArray(v) && v.length === 0));
  if (!othersEmpty) return undefined;
  const excluded: StoredProduct[] = [];
  for (const [conditions, lookup] of [
    [skuId, (v: string) => [store.get(v)]],
    [supplierSku, (v: string) => store.bySupplierSku(v)],
  ] as const) {
    for (const c of conditions) {
      const values = c.op === '$ne' ? [c.operand] : c.op === '$nin' ? c.operands : undefined;
      if (!values) return undefined;
      for (const value of values) {
        if (typeof value !== 'string') return undefined;
        for (const p of lookup(value)) if (p) excluded.push(p);
      }
    }
  }
  return excluded;
}

/**
 * One page of the records of a createdAt range, minus `excluded`, in index order (createdAt
 * ASC or DESC, ties by insertion sequence ascending): the total comes from index positions
 * (binary searches) and only the page is read, with the whole runs of equal createdAt at its
 * edges when ties are shuffled or the order is DESC (whose ties run against the index's).
 * The same page, total and shuffle as sorting and shuffling every match, at the cost of the page.
 */
export function indexedRangePage(
  index: CreatedAtIndex,
  range: TimeRange,
  order: 'ASC' | 'DESC',
  excluded: readonly StoredProduct[],
  page: PageRequest,
  shuffle?: TieShuffle,
): SearchPage {
  const { start, end } = index.span(range);
  const skipped = excludedPositions(index, excluded, start, end);
  const total = end - start - skipped.length;
  if (page.limit === 0 || page.offset >= total) {
    shuffle?.([]);
    return { items: [], total, examined: 0 };
  }
  const isSkipped = new Set(skipped);
  const window =
    order === 'ASC'
      ? ascendingWindow(index, { start, end }, skipped, isSkipped, page, shuffle !== undefined)
      : descendingWindow(index, { start, end }, skipped, isSkipped, page);
  shuffle?.(window.records);
  const from = page.offset - window.rank;
  return { items: window.records.slice(from, from + page.limit), total, examined: window.records.length };
}

/** Records in sort order around the page, and the rank (among matches) of the first of them. */
interface Window {
  records: StoredProduct[];
  rank: number;
}

function ascendingWindow(
  index: CreatedAtIndex,
  span: IndexSpan,
  skipped: readonly number[],
  isSkipped: ReadonlySet<number>,
  page: PageRequest,
  wholeRuns: boolean,
): Window {
  const first = nthKept(span.start, page.offset, skipped, 1);
  const from = wholeRuns ? Math.max(span.start, index.runAt(first).start) : first;
  let to = first;
  for (let taken = 0; to < span.end && taken < page.limit; to++) if (!isSkipped.has(to)) taken++;
  if (wholeRuns) to = Math.min(span.end, index.runAt(to - 1).end);
  const records: StoredProduct[] = [];
  for (let i = from; i < to; i++) if (!isSkipped.has(i)) records.push(index.at(i));
  return { records, rank: from - span.start - countBelow(skipped, from) };
}

function descendingWindow(
  index: CreatedAtIndex,
  span: IndexSpan,
  skipped: readonly number[],
  isSkipped: ReadonlySet<number>,
  page: PageRequest,
): Window {
  // Ranks count down from the end; a run of equal createdAt holds the same block of ranks
  // whichever way its members are ordered, so whole runs are read and then put in seq order.
  const first = nthKept(span.end - 1, page.offset, skipped, -1);
  const to = Math.min(span.end, index.runAt(first).end);
  let last = first;
  for (let taken = 0, i = first; i >= span.start && taken < page.limit; i--) {
    if (!isSkipped.has(i)) {
      taken++;
      last = i;
    }
  }
  const from = Math.max(span.start, index.runAt(last).start);
  const records: StoredProduct[] = [];
  for (let i = to - 1; i >= from; i--) if (!isSkipped.has(i)) records.push(index.at(i));
  reverseRuns(records);
  return { records, rank: span.end - to - (skipped.length - countBelow(skipped, to)) };
}

/** Sorted, distinct positions of the excluded records inside [start, end). */
function excludedPositions(
  index: CreatedAtIndex,
  excluded: readonly StoredProduct[],
  start: number,
  end: number,
): number[] {
  const positions = new Set<number>();
  for (const product of excluded) {
    const at = index.positionOf(product);
    if (at >= start && at < end) positions.add(at);
  }
  return [...positions].sort((a, b) => a - b);
}

/**
 * The position of the n-th (0-based) kept record walking from `origin` in `direction`, skipping
 * the sorted positions in `skipped`.
 */
function nthKept(origin: number, n: number, skipped: readonly number[], direction: 1 | -1): number {
  let distance = n;
  const count = skipped.length;
  for (let k = 0; k < count; k++) {
    const s = skipped[direction === 1 ? k : count - 1 - k] as number;
    if ((s - origin) * direction <= distance) distance++;
    else break;
  }
  return origin + distance * direction;
}

/** How many of the sorted positions are below `position`. */
function countBelow(sorted: readonly number[], position: number): number {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if ((sorted[mid] as number) < position) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** Reverses, in place, each run of equal createdAt (descending seq becomes ascending). */
export function reverseRuns(records: StoredProduct[]): void {
  let runStart = 0;
  for (let i = 1; i <= records.length; i++) {
    const current = records[i];
    if (current !== undefined && current.createdAt === (records[runStart] as StoredProduct).createdAt)
      continue;
    for (let a = runStart, b = i - 1; a < b; a++, b--) {
      const t = records[a] as StoredProduct;
      records[a] = records[b] as StoredProduct;
      records[b] = t;
    }
    runStart = i;
  }
}
