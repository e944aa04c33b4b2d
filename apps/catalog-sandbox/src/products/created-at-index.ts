import type { TimeRange } from './product-store.js';
import type { StoredProduct } from './stored-product.js';

/** Half-open interval [start, end) of positions in the createdAt index. */
export interface IndexSpan {
  start: number;
  end: number;
}

/**
 * The createdAt index: every record in one array sorted by (createdAt, seq). Besides range
 * scans it answers by position, so a search can count a range (end − start, two binary
 * searches) and read one page of it without walking the records before the page. Appends are
 * O(1) because time only moves forward in normal use; out-of-order inserts (bulk fixtures)
 * use binary insertion.
 */
export class CreatedAtIndex {
  readonly #sorted: StoredProduct[] = [];

  get length(): number {
    return this.#sorted.length;
  }

  insert(product: StoredProduct): void {
    const last = this.#sorted[this.#sorted.length - 1];
    if (!last || compareCreatedAt(last, product) <= 0) this.#sorted.push(product);
    else this.#sorted.splice(this.lowerBound(product.createdAt, product.seq), 0, product);
  }

  remove(product: StoredProduct): void {
    const at = this.positionOf(product);
    if (at >= 0) this.#sorted.splice(at, 1);
  }

  clear(): void {
    this.#sorted.length = 0;
  }

  /** The record at a position (0 ≤ position < length). */
  at(position: number): StoredProduct {
    return this.#sorted[position] as StoredProduct;
  }

  /** The record's position, or -1 when the index does not hold it. */
  positionOf(product: StoredProduct): number {
    const at = this.lowerBound(product.createdAt, product.seq);
    return this.#sorted[at] === product ? at : -1;
  }

  /** Positions of the records whose createdAt is in range; exact for any number (no rounding). */
  span(range: TimeRange): IndexSpan {
    const start =
      range.gt !== undefined
        ? this.firstAfter(range.gt)
        : range.gte !== undefined
          ? this.firstAtOrAfter(range.gte)
          : 0;
    const end =
      range.lt !== undefined
        ? this.firstAtOrAfter(range.lt)
        : range.lte !== undefined
          ? this.firstAfter(range.lte)
          : this.#sorted.length;
    return { start, end: Math.max(start, end) };
  }

  /** Positions of the run of records sharing the createdAt of the record at `position`. */
  runAt(position: number): IndexSpan {
    const createdAt = this.at(position).createdAt;
    return { start: this.firstAtOrAfter(createdAt), end: this.firstAfter(createdAt) };
  }

  /** Records in [start, end), ascending or descending by position. */
  *slice(span: IndexSpan, order: 'ASC' | 'DESC'): Iterable<StoredProduct> {
    if (order === 'ASC') for (let i = span.start; i < span.end; i++) yield this.at(i);
    else for (let i = span.end - 1; i >= span.start; i--) yield this.at(i);
  }

  private firstAtOrAfter(createdAt: number): number {
    return this.lowerBound(createdAt, Number.NEGATIVE_INFINITY);
  }

  private firstAfter(createdAt: number): number {
    return this.lowerBound(createdAt, Number.POSITIVE_INFINITY);
  }

  /** First position whose (createdAt, seq) is >= the given pair. */
  private lowerBound(createdAt: number, seq: number): number {
    let lo = 0;
    let hi = this.#sorted.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      const p = this.#sorted[mid] as StoredProduct;
      if (p.createdAt < createdAt || (p.createdAt === createdAt && p.seq < seq)) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }
}

/** Order of the createdAt index: createdAt, then insertion sequence. */
export function compareCreatedAt(a: StoredProduct, b: StoredProduct): number {
  return a.createdAt - b.createdAt || a.seq - b.seq;
}
