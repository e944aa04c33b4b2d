import type { StoredProduct } from '../products/stored-product.js';
import type { SortRequest } from './search-sort.js';

export const PRODUCT_SORT_FIELDS = ['createdAt', 'updatedAt', 'dataEnrichment.completedAt'] as const;
export type ProductSortField = (typeof PRODUCT_SORT_FIELDS)[number];
export type ProductSort = SortRequest<ProductSortField>;

/** Order when `sort` is omitted. */
export const DEFAULT_PRODUCT_SORT: ProductSort = { field: 'createdAt', order: 'ASC' };

/**
 * Orders records by the sort field (ASC or DESC); records without the field (no
 * `dataEnrichment.completedAt`) come last in both orders; ties are broken by insertion
 * sequence ascending, then skuId (the search then shuffles them, unless `searchTieOrder` is
 * `creation`: see tie-order.ts).
 */
export function productComparator(sort: ProductSort): (a: StoredProduct, b: StoredProduct) => number {
  const direction = sort.order === 'ASC' ? 1 : -1;
  return (a, b) => {
    const x = sortValue(a, sort.field);
    const y = sortValue(b, sort.field);
    if (x !== y) {
      if (x === undefined) return 1;
      if (y === undefined) return -1;
      return (x - y) * direction;
    }
    return a.seq - b.seq || (a.skuId < b.skuId ? -1 : a.skuId > b.skuId ? 1 : 0);
  };
}

/** Whether two records have equal sort keys (both without the field counts as equal): a tie. */
export function sameSortKey(sort: ProductSort): (a: StoredProduct, b: StoredProduct) => boolean {
  return (a, b) => sortValue(a, sort.field) === sortValue(b, sort.field);
}

function sortValue(product: StoredProduct, field: ProductSortField): number | undefined {
  switch (field) {
    case 'createdAt':
      return product.createdAt;
    case 'updatedAt':
      return product.updatedAt;
    case 'dataEnrichment.completedAt':
      return product.dataEnrichment?.completedAt;
    default: {
      const unreachable: never = field;
      throw new Error(`unhandled sort field ${String(unreachable)}`);
    }
  }
}
