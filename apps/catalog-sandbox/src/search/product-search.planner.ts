import type { ProductStore, TimeRange } from '../products/product-store.js';
import type { StoredProduct } from '../products/stored-product.js';
import type { Condition } from './filter-condition.js';
import type { ProductFilterQuery } from './product-filter.parser.js';
import type { ProductSort } from './product-sort.js';

export type SearchIndex = 'skuId' | 'supplierSku' | 'createdAt' | 'scan';

/** Where the candidates of a search come from; every candidate still goes through the full matcher. */
export interface SearchPlan {
  index: SearchIndex;
  candidates: Iterable<StoredProduct>;
  /** True when the candidates already come in the requested order (no sort needed). */
  inSortOrder: boolean;
}

/**
 * Picks the most selective index the filter allows: exact `skuId` or `supplierSku` values
 * ($eq / $in; the smaller candidate set wins), else a `createdAt` range (or the createdAt index
 * alone when sorting by createdAt, for its order), else a scan of every record.
 */
export function planProductSearch(
  query: ProductFilterQuery,
  sort: ProductSort,
  store: ProductStore,
): SearchPlan {
  const exact: Array<{ index: SearchIndex; candidates: StoredProduct[] }> = [];
  for (const values of exactValues(query.skuId)) {
    const found = values.map((v) => store.get(v)).filter((p): p is StoredProduct => p !== undefined);
    exact.push({ index: 'skuId', candidates: found });
  }
  for (const values of exactValues(query.supplierSku)) {
    exact.push({ index: 'supplierSku', candidates: values.flatMap((v) => store.bySupplierSku(v)) });
  }
  if (exact.length > 0) {
    const best = exact.reduce((a, b) => (b.candidates.length < a.candidates.length ? b : a));
    return { ...best, inSortOrder: false };
  }
  const range = createdAtRange(query.createdAt);
  const byCreatedAt = sort.field === 'createdAt';
  if (range || byCreatedAt) {
    const order = byCreatedAt ? sort.order : 'ASC';
    const scan = store.byCreatedAt(range ?? {}, order);
    return {
      index: 'createdAt',
      candidates: order === 'DESC' ? withAscendingTies(scan) : scan,
      inSortOrder: byCreatedAt,
    };
  }
  return { index: 'scan', candidates: store.all(), inSortOrder: false };
}

/** The value sets that $eq and $in conditions allow (each set bounds the matches), deduplicated. */
function exactValues(conditions: readonly Condition[]): string[][] {
  const sets: string[][] = [];
  for (const c of conditions) {
    if (c.op === '$eq' && typeof c.operand === 'string') sets.push([c.operand]);
    if (c.op === '$in') sets.push([...new Set(c.operands.filter((o): o is string => typeof o === 'string'))]);
  }
  return sets;
}

/** The integer createdAt range the comparison conditions allow, or undefined when none bounds it. */
function createdAtRange(conditions: readonly Condition[]): TimeRange | undefined {
  let gte = Number.NEGATIVE_INFINITY;
  let lte = Number.POSITIVE_INFINITY;
  let bounded = false;
  for (const c of conditions) {
    if (c.op !== '$eq' && c.op !== '$gt' && c.op !== '$gte' && c.op !== '$lt' && c.op !== '$lte') continue;
    if (typeof c.operand !== 'number') continue;
    bounded = true;
    const v = c.operand;
    if (c.op === '$eq' || c.op === '$gte') gte = Math.max(gte, Math.ceil(v));
    if (c.op === '$gt') gte = Math.max(gte, Math.floor(v) + 1);
    if (c.op === '$eq' || c.op === '$lte') lte = Math.min(lte, Math.floor(v));
    if (c.op === '$lt') lte = Math.min(lte, Math.ceil(v) - 1);
  }
  if (!bounded) return undefined;
  const range: TimeRange = {};
  if (gte !== Number.NEGATIVE_INFINITY) range.gte = gte;
  if (lte !== Number.POSITIVE_INFINITY) range.lte = lte;
  return range;
}

/**
 * The createdAt index in DESC order yields ties by descending sequence; the search's tie break
 * is ascending sequence, so each run of equal createdAt is reversed (streaming, run by run).
 */
function* withAscendingTies(descending: Iterable<StoredProduct>): Iterable<StoredProduct> {
  let run: StoredProduct[] = [];
  for (const product of descending) {
    if (run.length > 0 && (run[0] as StoredProduct).createdAt !== product.createdAt) {
      yield* run.reverse();
      run = [];
    }
    run.push(product);
  }
  yield* run.reverse();
}
