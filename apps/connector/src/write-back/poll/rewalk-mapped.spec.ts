import { describe, expect, it } from 'vitest';
import { InMemoryCatalogSearch } from '../../../test/support/catalog-search-stub.js';
import { approved, catalogRecord } from '../../../test/support/write-back-mapping.js';
import { rewalkMapped } from './rewalk-mapped.js';

describe('re-walking every mapped record', () => {
  // 10,000 records through the in-memory catalog: seconds on a loaded 2-core machine, not a timing claim.
  it('reads 10,000 mapped records in 20 searches, by keyset over the sku map', {
    timeout: 30_000,
  }, async () => {
    const catalog = new InMemoryCatalogSearch();
    const mapped = Array.from({ length: 10_000 }, (_, i) => `SK${String(i).padStart(8, '0')}`);
    for (const skuId of mapped) catalog.put(catalogRecord(skuId, [approved('seoTitle', `Title ${skuId}`)]));
    // A record nobody mapped is not read.
    catalog.put(catalogRecord('SK99999999', [approved('seoTitle', 'stranger')]));
    const afters: Array<string | null> = [];
    const page = async (after: string | null, limit: number) => {
      afters.push(after);
      return mapped.filter((s) => after === null || s > after).slice(0, limit);
    };
    const pages: string[][] = [];
    const walk = await rewalkMapped(catalog.search, page, async (records) => {
      pages.push(records.map((r) => r.skuId));
    });
    expect(walk.calls).toBe(20);
    // Each search's records handed on as one page, each mapped record once.
    expect(pages.map((p) => p.length)).toEqual(Array(20).fill(500));
    expect(pages.flat()).toEqual(mapped);
    expect(pages.flat().includes('SK99999999')).toBe(false);
    expect(afters.slice(0, 2)).toEqual([null, 'SK00000499']);
    for (const body of catalog.bodies) expect(body.pagination).toEqual({ limit: 500, offset: 0 });
  });
});
