import { describe, expect, it } from 'vitest';
import { InMemoryProductStore } from './in-memory-product.store.js';
import type { StoredProduct } from './stored-product.js';

let seq = 0;
function product(skuId: string, supplierSku: string, createdAt: number): StoredProduct {
  seq += 1;
  return {
    id: `id-${skuId}`,
    skuId,
    supplierSku,
    parentSkuId: null,
    createdAt,
    updatedAt: createdAt,
    seq,
    attributes: new Map(),
    ownMedia: false,
    variantSkuIds: [],
  };
}

describe('InMemoryProductStore', () => {
  it('finds by skuId and by a shared supplierSku, oldest first', () => {
    const store = new InMemoryProductStore();
    store.insert(product('SK1', 'dup', 10));
    store.insert(product('SK2', 'dup', 20));
    store.insert(product('SK3', 'other', 30));
    expect(store.get('SK2')?.supplierSku).toBe('dup');
    expect(store.bySupplierSku('dup').map((p) => p.skuId)).toEqual(['SK1', 'SK2']);
    expect(store.bySupplierSku('none')).toEqual([]);
  });

  it('scans createdAt ranges in both orders, including out-of-order inserts', () => {
    const store = new InMemoryProductStore();
    for (const [sku, t] of [
      ['A', 50],
      ['B', 10],
      ['C', 30],
      ['D', 30],
      ['E', 70],
    ] as const)
      store.insert(product(sku, sku, t));
    const asc = [...store.byCreatedAt({ gte: 30, lt: 70 }, 'ASC')].map((p) => p.skuId);
    expect(asc).toEqual(['C', 'D', 'A']);
    const desc = [...store.byCreatedAt({ gt: 10 }, 'DESC')].map((p) => p.skuId);
    expect(desc).toEqual(['E', 'A', 'D', 'C']);
    expect([...store.byCreatedAt({ gt: 70 }, 'ASC')]).toEqual([]);
    expect([...store.byCreatedAt({ gt: 29.5, lte: 30.5 }, 'ASC')].map((p) => p.skuId)).toEqual(['C', 'D']);
    expect([...store.byCreatedAt({ gte: 60, lte: 40 }, 'ASC')]).toEqual([]);
  });

  it('keeps every index right through delete and supplierSku changes', () => {
    const store = new InMemoryProductStore();
    const a = product('A', 'x', 1);
    store.insert(a);
    store.insert(product('B', 'x', 2));
    a.supplierSku = 'y';
    store.reindexSupplierSku(a, 'x');
    expect(store.bySupplierSku('x').map((p) => p.skuId)).toEqual(['B']);
    expect(store.bySupplierSku('y').map((p) => p.skuId)).toEqual(['A']);
    expect(store.delete('B')?.skuId).toBe('B');
    expect(store.get('B')).toBeUndefined();
    expect(store.bySupplierSku('x')).toEqual([]);
    expect([...store.byCreatedAt({}, 'ASC')].map((p) => p.skuId)).toEqual(['A']);
    expect(store.size).toBe(1);
  });
});
