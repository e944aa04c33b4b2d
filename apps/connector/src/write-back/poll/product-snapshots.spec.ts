import { describe, expect, it } from 'vitest';
import type { ProductRecord } from '#lib/catalog-contract';
import { InMemoryCatalogSearch } from '../../../test/support/catalog-search-stub.js';
import { approved, catalogRecord, pending } from '../../../test/support/write-back-mapping.js';
import { recordsFromSnapshot } from '../store/record-snapshot.js';
import { readProductSnapshots } from './product-snapshots.js';

const AT = Date.UTC(2026, 10, 1);
const ATTRIBUTES = ['seoTitle', 'variantTitle'];

function record(skuId: string, parentSkuId: string | null = null): ProductRecord {
  return catalogRecord(
    skuId,
    [approved('seoTitle', `T ${skuId}`), pending('variantTitle', `V ${skuId}`), approved('name', 'Shirt')],
    parentSkuId,
  );
}

describe("a product's records for its push", () => {
  it('reads the parent and variants the poll did not return, 500 skuIds per search for all products', async () => {
    const catalog = new InMemoryCatalogSearch();
    const products = new Map<string, string[]>();
    const read = new Map<string, ProductRecord>();
    // 300 products of a parent and two variants; the poll returned only the first variant of each.
    for (let p = 0; p < 300; p++) {
      const parent = `PA${String(p).padStart(8, '0')}`;
      const variants = [`VA${String(p).padStart(8, '0')}`, `VB${String(p).padStart(8, '0')}`];
      for (const skuId of [parent, ...variants]) catalog.put(record(skuId, skuId === parent ? null : parent));
      products.set(String(p + 1), [parent, ...variants]);
      read.set(variants[0] as string, record(variants[0] as string, parent));
    }
    catalog.records.delete('VB00000007'); // deleted in the catalog meanwhile
    const { snapshots, calls } = await readProductSnapshots(catalog.search, {
      products,
      read,
      attributes: ATTRIBUTES,
      at: AT,
    });
    expect(calls).toBe(2); // 600 skuIds not returned by the poll
    expect(catalog.bodies.map((b) => b.filter?.skuId?.$in?.length)).toEqual([500, 100]);
    const eighth = snapshots.get('8');
    expect(Object.keys(eighth?.records ?? {}).sort()).toEqual(['PA00000007', 'VA00000007', 'VB00000007']);
    expect(eighth?.records.VB00000007).toBeNull();
    expect(eighth?.records.PA00000007?.attributes.map((a) => a.key)).toEqual(['seoTitle', 'variantTitle']);
    expect(eighth).toMatchObject({ at: AT, attributes: ['seoTitle', 'variantTitle'] });

    const use = {
      skuIds: products.get('8') as string[],
      attributes: ATTRIBUTES,
      now: AT + 1_000,
      maxAgeMs: 60_000,
    };
    const records = recordsFromSnapshot(eighth, use);
    expect([...(records?.keys() ?? [])].sort()).toEqual(['PA00000007', 'VA00000007']);
  });

  it('stands in for a search only when fresh and covering the live records and the mapping', async () => {
    const { snapshots } = await readProductSnapshots(new InMemoryCatalogSearch().search, {
      products: new Map([['1', ['PA00000001']]]),
      read: new Map([['PA00000001', record('PA00000001')]]),
      attributes: ATTRIBUTES,
      at: AT,
    });
    const snapshot = snapshots.get('1');
    const use = { skuIds: ['PA00000001'], attributes: ATTRIBUTES, now: AT + 60_000, maxAgeMs: 60_000 };
    expect(recordsFromSnapshot(snapshot, use)?.size).toBe(1);
    expect(recordsFromSnapshot(snapshot, { ...use, now: AT + 60_001 })).toBeNull(); // too old
    expect(recordsFromSnapshot(snapshot, { ...use, skuIds: ['PA00000001', 'VA00000001'] })).toBeNull(); // a new variant
    expect(recordsFromSnapshot(snapshot, { ...use, attributes: [...ATTRIBUTES, 'material'] })).toBeNull(); // mapping grew
    expect(recordsFromSnapshot(null, use)).toBeNull(); // work added outside a poll
  });
});
