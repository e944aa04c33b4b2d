import type { ProductStore, TimeRange } from '../products/product-store.js';
import type { StoredProduct } from '../products/stored-product.js';
import type { Condition } from './filter-condition.js';
import type { ProductFilterQuery } from './product-filter.parser.js';
import type { ProductSort } from './product-sort.js';

export type SearchIndex = 'skuId' | 'supplierSku' | 'createdAt' | 'scan';

/**
 * Where the candidates of a search come from. `residual` is the part of the filter the index
 * does not settle: every candidate still has to pass it.
 */
export type SearchPlan =
  | { index: 'skuId' | 'supplierSku'; candidates: StoredProduct[]; residual: ProductFilterQuery }
  | {
      index: 'createdAt';
      /** Exactly the records the filter's createdAt comparisons allow (all of them when none). */
      range: TimeRange;
      /** Order to read the index in: the sort's when sorting by createdAt, else ascending. */
      order: 'ASC' | 'DESC';
      /** True when the index order is the requested order (sort by createdAt). */
      inSortOrder: boolean;
      /** The filter without the createdAt conditions the range answers. */
      residual: ProductFilterQuery;
    }
  | { index: 'scan'; residual: ProductFilterQuery };

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
  const exact: Array<{ index: 'skuId' | 'supplierSku'; candidates: StoredProduct[] }> = [];
  for (const values of exactValues(query.skuId)) {
    const found = values.map((v) => store.get(v)).filter((p): p is StoredProduct => p !== undefined);
    exact.push({ index: 'skuId', candidates: found });
  }
  for (const values of exactValues(query.supplierSku)) {
    exact.push({ index: 'supplierSku', candidates: values.flatMap((v) => store.bySupplierSku(v)) });
  }
  if (exact.length > 0) {
    const best = exact.reduce((a, b) => (b.candidates.length < a.candidates.length ? b : a));
    return { ...best, residual: query };
  }
  const { range, rest } = createdAtRange(query.createdAt);
  const byCreatedAt = sort.field === 'createdAt';
  if (range || byCreatedAt) {
    return {
      index: 'createdAt',
      range: range ?? {},
      order: byCreatedAt ? sort.order : 'ASC',
      inSortOrder: byCreatedAt,
      residual: { ...query, createdAt: rest },
    };
  }
  return { index: 'scan', residual: query };
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

interface Bound {
  value: number;
  /** $gt / $lt rather than $gte / $lte. */
  strict: boolean;
}

/**
 * The createdAt range the comparison conditions ($eq, $gt, $gte, $lt, $lte) allow, exactly (the
 * tightest bound of each side, no rounding), or undefined when none bounds it; `rest` is the
 * conditions the range does not answer ($ne, $in, $nin, $exists).
 */
function createdAtRange(conditions: readonly Condition[]): { range?: TimeRange; rest: Condition[] } {
  let lower: Bound | undefined;
  let upper: Bound | undefined;
  const rest: Condition[] = [];
  const tighter = (current: Bound | undefined, next: Bound, sign: 1 | -1): Bound =>
    !current ||
    (next.value - current.value) * sign > 0 ||
    (next.value === current.value && next.strict && !current.strict)
      ? next
      : current;
  for (const c of conditions) {
    const ranged = c.op === '$eq' || c.op === '$gt' || c.op === '$gte' || c.op === '$lt' || c.op === '$lte';
    if (!ranged || typeof c.operand !== 'number') {
      rest.push(c);
      continue;
    }
    const value = c.operand;
    if (c.op === '$eq' || c.op === '$gte' || c.op === '$gt')
      lower = tighter(lower, { value, strict: c.op === '$gt' }, 1);
    if (c.op === '$eq' || c.op === '$lte' || c.op === '$lt')
      upper = tighter(upper, { value, strict: c.op === '$lt' }, -1);
  }
  if (!lower && !upper) return { rest };
  const range: TimeRange = {};
  if (lower) range[lower.strict ? 'gt' : 'gte'] = lower.value;
  if (upper) range[upper.strict ? 'lt' : 'lte'] = upper.value;
  return { range, rest };
}
