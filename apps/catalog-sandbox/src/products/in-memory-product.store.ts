import type { ProductStore, TimeRange } from './product-store.js';
import type { StoredProduct } from './stored-product.js';

/**
 * The sandbox's product store: maps for `skuId` and `supplierSku`, and an array sorted by
 * (createdAt, seq) for range scans. Appends are O(1) because time only moves forward in
 * normal use; out-of-order inserts (bulk fixtures) use binary insertion.
 */
export class InMemoryProductStore implements ProductStore {
  private readonly bySku = new Map<string, StoredProduct>();
  private readonly bySupplier = new Map<string, Set<string>>();
  private readonly byCreated: StoredProduct[] = [];

  get size(): number {
    return this.bySku.size;
  }

  insert(product: StoredProduct): void {
    if (this.bySku.has(product.skuId)) throw new Error(`skuId ${product.skuId} already stored`);
    this.bySku.set(product.skuId, product);
    this.addSupplier(product.supplierSku, product.skuId);
    const last = this.byCreated[this.byCreated.length - 1];
    if (!last || compare(last, product) <= 0) this.byCreated.push(product);
    else this.byCreated.splice(this.lowerBound(product.createdAt, product.seq), 0, product);
  }

  reindexSupplierSku(product: StoredProduct, previous: string): void {
    this.removeSupplier(previous, product.skuId);
    this.addSupplier(product.supplierSku, product.skuId);
  }

  delete(skuId: string): StoredProduct | undefined {
    const product = this.bySku.get(skuId);
    if (!product) return undefined;
    this.bySku.delete(skuId);
    this.removeSupplier(product.supplierSku, skuId);
    const at = this.lowerBound(product.createdAt, product.seq);
    if (this.byCreated[at] === product) this.byCreated.splice(at, 1);
    return product;
  }

  get(skuId: string): StoredProduct | undefined {
    return this.bySku.get(skuId);
  }

  bySupplierSku(supplierSku: string): StoredProduct[] {
    const skus = this.bySupplier.get(supplierSku);
    if (!skus) return [];
    return [...skus].map((s) => this.bySku.get(s) as StoredProduct).sort(compare);
  }

  *byCreatedAt(range: TimeRange, order: 'ASC' | 'DESC'): Iterable<StoredProduct> {
    // First index at or past the lower bound, first index past the upper bound; exact for any number.
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
          : this.byCreated.length;
    if (order === 'ASC') for (let i = start; i < end; i++) yield this.byCreated[i] as StoredProduct;
    else for (let i = end - 1; i >= start; i--) yield this.byCreated[i] as StoredProduct;
  }

  all(): Iterable<StoredProduct> {
    return this.bySku.values();
  }

  clear(): void {
    this.bySku.clear();
    this.bySupplier.clear();
    this.byCreated.length = 0;
  }

  private firstAtOrAfter(createdAt: number): number {
    return this.lowerBound(createdAt, Number.NEGATIVE_INFINITY);
  }

  private firstAfter(createdAt: number): number {
    return this.lowerBound(createdAt, Number.POSITIVE_INFINITY);
  }

  /** First index whose (createdAt, seq) is >= the given pair. */
  private lowerBound(createdAt: number, seq: number): number {
    let lo = 0;
    let hi = this.byCreated.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      const p = this.byCreated[mid] as StoredProduct;
      if (p.createdAt < createdAt || (p.createdAt === createdAt && p.seq < seq)) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  private addSupplier(supplierSku: string, skuId: string): void {
    let set = this.bySupplier.get(supplierSku);
    if (!set) {
      set = new Set();
      this.bySupplier.set(supplierSku, set);
    }
    set.add(skuId);
  }

  private removeSupplier(supplierSku: string, skuId: string): void {
    const set = this.bySupplier.get(supplierSku);
    set?.delete(skuId);
    if (set?.size === 0) this.bySupplier.delete(supplierSku);
  }
}

function compare(a: StoredProduct, b: StoredProduct): number {
  return a.createdAt - b.createdAt || a.seq - b.seq;
}
