import { describe, expect, it } from 'vitest';
import type { CatalogClient } from '#lib/catalog-client';
import type { ProductRecord, ProductSearchRequest } from '#lib/catalog-contract';
import { readDriftCatalog } from './drift-catalog.js';

/** A catalog answering the keyset scan's searches over `count` records (many sharing a createdAt). */
function fakeCatalog(count: number) {
  const all: ProductRecord[] = Array.from({ length: count }, (_, i) => ({
    id: `id-${i}`,
    skuId: `S${i}`,
    supplierSku: `acme:product:${i}`,
    parentSkuId: null,
    createdAt: 1_000 + Math.floor(i / 300),
    updatedAt: 1_000,
    attributeSummary: { enrichableTotal: 0, enrichableCompleted: 0, enrichableCompletionRate: 0 },
    attributes: [],
  }));
  const calls: { limit: number; priority: string | undefined }[] = [];
  const client: Pick<CatalogClient, 'searchProducts'> = {
    searchProducts: async (request: ProductSearchRequest, call) => {
      const filter = request.filter as { createdAt?: { $gte: number }; skuId?: { $nin: string[] } };
      const limit = request.pagination?.limit ?? 20;
      calls.push({ limit, priority: call?.priority });
      const seen = new Set(filter.skuId?.$nin ?? []);
      const matches = all.filter((r) => r.createdAt >= (filter.createdAt?.$gte ?? 0) && !seen.has(r.skuId));
      const products = matches.slice(0, limit);
      return {
        products,
        pagination: { limit, offset: 0, total: matches.length, hasMore: matches.length > limit },
      };
    },
  };
  return { client, calls };
}

describe('the drift report reading the catalog', () => {
  it.each([
    [1_000, 3],
    [1_200, 3],
    [499, 1],
    [10_000, 21],
  ])(
    'reads %i records whole in %i searches of 500 at bulk priority, never one per record',
    async (count, searches) => {
      const { client, calls } = fakeCatalog(count);
      const read = await readDriftCatalog(client);
      expect(new Set(read.records.map((r) => r.skuId)).size).toBe(count);
      expect(read.records).toHaveLength(count);
      expect(read.searches).toBe(searches);
      expect(calls).toHaveLength(searches);
      expect(calls.every((c) => c.limit === 500 && c.priority === 'bulk')).toBe(true);
      // floor(n / 500) + 1 (a short page ends the scan, a full one asks once more): 10,000 records
      // cost 20 full pages and one empty search, 21 in all (the bound).
      expect(searches).toBe(Math.floor(count / 500) + 1);
    },
  );
});
