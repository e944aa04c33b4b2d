import { describe, expect, it } from 'vitest';
import { ManualClock } from '#lib/clock';
import type { ProductRecord } from './product.model.js';
import { ProductStore } from './product.store.js';

/** A stored product with only what the handle index reads. */
function product(id: number, handle: string): ProductRecord {
  return { id, handle, updatedAt: 0, variants: [], images: [] } as unknown as ProductRecord;
}

describe('ProductStore.uniqueHandle', () => {
  it('suffixes a handle another product holds, and leaves a product its own', () => {
    const store = new ProductStore(new ManualClock(0));
    store.insert(product(1, 'shirt'));
    store.insert(product(2, 'shirt-1'));
    expect(store.uniqueHandle('shirt')).toBe('shirt-2');
    expect(store.uniqueHandle('shirt', 1)).toBe('shirt');
    expect(store.uniqueHandle('hat')).toBe('hat');
  });

  it('frees a handle its product changed away from, or took with it when removed', () => {
    const store = new ProductStore(new ManualClock(0));
    const shirt = product(1, 'shirt');
    store.insert(shirt);
    store.insert(product(2, 'hat'));
    shirt.handle = 'linen-shirt';
    store.save(shirt);
    expect(store.uniqueHandle('shirt')).toBe('shirt');
    expect(store.uniqueHandle('linen-shirt')).toBe('linen-shirt-1');
    store.remove(2);
    expect(store.uniqueHandle('hat')).toBe('hat');
  });

  it('keeps 20,000 handles distinct as they are created one by one', () => {
    const store = new ProductStore(new ManualClock(0));
    for (let i = 0; i < 20_000; i++) store.insert(product(i, store.uniqueHandle(`tee-${i}`)));
    expect(store.uniqueHandle('tee-19999')).toBe('tee-19999-1');
    expect(new Set(store.list().map((p) => p.handle)).size).toBe(20_000);
  });
});
