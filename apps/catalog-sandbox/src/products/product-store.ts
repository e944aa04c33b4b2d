import type { CreatedAtIndex } from './created-at-index.js';
import type { StoredProduct } from './stored-product.js';

export interface TimeRange {
  gt?: number;
  gte?: number;
  lt?: number;
  lte?: number;
}

/**
 * Storage of one account's products and variants. Implementations keep indexes on the fields
 * the spec names as indexed: `skuId` (unique), `supplierSku` (not unique) and `createdAt`.
 */
export interface ProductStore {
  readonly size: number;
  insert(product: StoredProduct): void;
  /** Call after changing a record's `supplierSku`, so the index follows. */
  reindexSupplierSku(product: StoredProduct, previous: string): void;
  delete(skuId: string): StoredProduct | undefined;
  get(skuId: string): StoredProduct | undefined;
  bySupplierSku(supplierSku: string): StoredProduct[];
  /** The createdAt index by position: counts and pages of a range without reading all of it. */
  readonly createdAtIndex: CreatedAtIndex;
  /** Records whose createdAt is in range, by (createdAt, seq) ascending or descending. */
  byCreatedAt(range: TimeRange, order: 'ASC' | 'DESC'): Iterable<StoredProduct>;
  /** Every record in insertion order. */
  all(): Iterable<StoredProduct>;
  clear(): void;
}
