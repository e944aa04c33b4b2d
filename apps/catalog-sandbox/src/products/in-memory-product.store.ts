import { CreatedAtIndex, compareCreatedAt } from './created-at-index.js';
import type { ProductStore, TimeRange } from './product-store.js';
import type { StoredProduct } from './stored-product.js';

/**
 * The sandbox's product store: maps for `skuId` and `supplierSku`, and the createdAt index (an
 * array sorted by (createdAt, seq), see created-at-index.ts) for range scans and counts.
 */
export class InMemoryProductStore implements ProductStore {
  private readonly bySku = new Map<string, StoredProduct>();
  private readonly bySupplier = new Map<string, Set<string>>();
  readonly createdAtIndex = new CreatedAtIndex();

  get size(): number {
    return this.bySku.size;
  }

  insert(product: StoredProduct): void {
    if (this.bySku.has(product.skuId)) throw new Error(`skuId ${product.skuId} already stored`);
    this.bySku.set(product.skuId, product);
    this.addSupplier(product.supplierSku, product.skuId);
    this.createdAtIndex.insert(product);
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
    this.createdAtIndex.remove(product);
    return product;
  }

  get(skuId: string): StoredProduct | undefined {
    return this.bySku.get(skuId);
  }

  bySupplierSku(supplierSku: string): StoredProduct[] {
    const skus = this.bySupplier.get(supplierSku);
    if (!skus) return [];
    return [...skus].map((s) => this.bySku.get(s) as StoredProduct).sort(compareCreatedAt);
  }

  byCreatedAt(range: TimeRange, order: 'ASC' | 'DESC'): Iterable<StoredProduct> {
    return this.createdAtIndex.slice(this.createdAtIndex.span(range), order);
  }

  all(): Iterable<StoredProduct> {
    return this.bySku.values();
  }

  clear(): void {
    this.bySku.clear();
    this.bySupplier.clear();
    this.createdAtIndex.clear();
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
