import { describe, expect, it } from 'vitest';
import type { ProductRecord, ProductSearchRequest, ProductSearchResponse } from '#lib/catalog-contract';
import { seededRandom } from '#lib/seeded-random';
import { catalogRecord } from '../../../test/support/write-back-mapping.js';
import { pollChanged } from './poll-finished.js';
import { awaitingReview, recheckWatchlist, recordContentHash } from './review-watchlist.js';

type Range = { $gt?: number; $gte?: number };

/**
 * A catalog search over records that honours what the poller sends ($gt/$gte on the field,
 * status $in, skuId $nin/$in, ascending sort, limit) and answers ties in a new random order on
 * every call, as the spec allows. Records the test adds later show up in later calls.
 */
class FakeCatalog {
  records: ProductRecord[] = [];
  bodies: ProductSearchRequest[] = [];
  readonly #random = seededRandom(7);

  add(
    skuId: string,
    completedAt: number,
    status: 'FINISHED' | 'FAILED' = 'FINISHED',
    updatedAt = completedAt,
  ) {
    const record = catalogRecord(skuId, []);
    record.dataEnrichment = { taskId: 'TK00000001', status, completedAt };
    record.updatedAt = updatedAt;
    this.records.push(record);
  }

  search = async (body: ProductSearchRequest): Promise<ProductSearchResponse> => {
    this.bodies.push(structuredClone(body));
    const filter = body.filter ?? {};
    const field = body.sort?.field === 'updatedAt' ? 'updatedAt' : 'dataEnrichment.completedAt';
    const value = (r: ProductRecord) =>
      field === 'updatedAt' ? r.updatedAt : (r.dataEnrichment?.completedAt ?? -1);
    const range = (field === 'updatedAt' ? filter.updatedAt : filter.dataEnrichment?.completedAt) as
      | Range
      | undefined;
    const matches = this.records.filter(
      (r) =>
        (range?.$gt === undefined || value(r) > range.$gt) &&
        (range?.$gte === undefined || value(r) >= range.$gte) &&
        (!filter.dataEnrichment?.status?.$in ||
          filter.dataEnrichment.status.$in.includes(r.dataEnrichment?.status ?? 'QUEUED')) &&
        !(filter.skuId?.$nin ?? []).includes(r.skuId) &&
        (!filter.skuId?.$in || filter.skuId.$in.includes(r.skuId)),
    );
    const shuffled = matches
      .map((r) => ({ r, tie: this.#random() }))
      .sort((a, b) => value(a.r) - value(b.r) || a.tie - b.tie);
    const limit = body.pagination?.limit ?? 20;
    const offset = body.pagination?.offset ?? 0;
    const page = shuffled.slice(offset, offset + limit).map((x) => x.r);
    return {
      products: page,
      pagination: { limit, offset, total: matches.length, hasMore: offset + page.length < matches.length },
    };
  };
}

const sku = (i: number) => `SK${String(i).padStart(8, '0')}`;

describe('pollChanged', () => {
  it('finds each record once with 600 sharing one completedAt among others, in two calls, never by offset', async () => {
    const catalog = new FakeCatalog();
    for (let i = 0; i < 100; i++) catalog.add(sku(i), 1_000 + i);
    for (let i = 100; i < 700; i++) catalog.add(sku(i), 5_000);
    for (let i = 700; i < 750; i++) catalog.add(sku(i), 6_000 + i);
    catalog.add(sku(999), 5_500, 'FAILED');
    const result = await pollChanged(catalog.search, {
      field: 'dataEnrichment.completedAt',
      checkpoint: null,
      overlapMs: 0,
    });
    const ids = result.records.map((r) => r.skuId);
    expect(ids).toHaveLength(750);
    expect(new Set(ids).size).toBe(750);
    expect(ids).not.toContain(sku(999));
    expect(result).toMatchObject({ calls: 2, complete: true, checkpoint: 6_749 });
    expect(catalog.bodies.every((b) => b.pagination?.offset === 0 && b.pagination.limit === 500)).toBe(true);
    expect(catalog.bodies[1]?.filter).toMatchObject({
      dataEnrichment: { status: { $in: ['FINISHED'] }, completedAt: { $gte: 5_000 } },
    });
    expect(catalog.bodies[1]?.filter?.skuId?.$nin).toHaveLength(400);
  });

  it('stays exact when a page holds nothing but one value, again and again', async () => {
    const catalog = new FakeCatalog();
    for (let i = 0; i < 1_234; i++) catalog.add(sku(i), 7_000);
    const result = await pollChanged(catalog.search, {
      field: 'dataEnrichment.completedAt',
      checkpoint: 6_000,
      overlapMs: 0,
      pageSize: 100,
    });
    expect(new Set(result.records.map((r) => r.skuId)).size).toBe(1_234);
    expect(result.records).toHaveLength(1_234);
    expect(result.calls).toBe(13);
    expect(result.checkpoint).toBe(7_000);
  });

  it('finds a completedAt that became visible after the checkpoint passed it, within the overlap', async () => {
    const catalog = new FakeCatalog();
    catalog.add(sku(1), 10_000);
    const first = await pollChanged(catalog.search, {
      field: 'dataEnrichment.completedAt',
      checkpoint: null,
      overlapMs: 5_000,
    });
    expect(first.checkpoint).toBe(10_000);
    catalog.add(sku(2), 8_000); // written late by the catalog
    const second = await pollChanged(catalog.search, {
      field: 'dataEnrichment.completedAt',
      checkpoint: first.checkpoint,
      overlapMs: 5_000,
    });
    expect(second.records.map((r) => r.skuId)).toEqual([sku(2), sku(1)]);
    expect(catalog.bodies.at(-1)?.filter?.dataEnrichment?.completedAt).toEqual({ $gt: 5_000 });
    expect(second.checkpoint).toBe(10_000);
  });

  it('stops at maxCalls with a checkpoint below the value it was in the middle of', async () => {
    const catalog = new FakeCatalog();
    for (let i = 0; i < 10; i++) catalog.add(sku(i), 100 + i);
    for (let i = 10; i < 50; i++) catalog.add(sku(i), 500);
    const stopped = await pollChanged(catalog.search, {
      field: 'dataEnrichment.completedAt',
      checkpoint: 0,
      overlapMs: 0,
      pageSize: 15,
      maxCalls: 2,
    });
    expect(stopped).toMatchObject({ complete: false, calls: 2, checkpoint: 499 });
    expect(stopped.records).toHaveLength(30);
    const rest = await pollChanged(catalog.search, {
      field: 'dataEnrichment.completedAt',
      checkpoint: stopped.checkpoint,
      overlapMs: 0,
      pageSize: 15,
    });
    const all = new Set([...stopped.records, ...rest.records].map((r) => r.skuId));
    expect(all.size).toBe(50);
    expect(rest.records).toHaveLength(40);
    expect(rest.records.every((r) => r.dataEnrichment?.completedAt === 500)).toBe(true);
  });

  it('walks updatedAt the same way (the fast path for approvals that touch it)', async () => {
    const catalog = new FakeCatalog();
    for (let i = 0; i < 3; i++) catalog.add(sku(i), 1, 'FINISHED', 2_000);
    const result = await pollChanged(catalog.search, { field: 'updatedAt', checkpoint: 1_000, overlapMs: 0 });
    expect(result.records).toHaveLength(3);
    expect(catalog.bodies[0]?.filter).toEqual({ updatedAt: { $gt: 1_000 } });
    expect(catalog.bodies[0]?.sort).toEqual({ field: 'updatedAt', order: 'ASC' });
  });
});

describe('review watchlist', () => {
  it('re-reads watched records 500 per call and reports the ones gone', async () => {
    const catalog = new FakeCatalog();
    for (let i = 0; i < 1_100; i++) catalog.add(sku(i), 1);
    const watched = [...Array.from({ length: 1_100 }, (_, i) => sku(i)), sku(5_000)];
    const result = await recheckWatchlist(catalog.search, watched);
    expect(result.calls).toBe(3);
    expect(result.records).toHaveLength(1_100);
    expect(result.missing).toEqual([sku(5_000)]);
    expect(catalog.bodies.map((b) => b.filter?.skuId?.$in?.length)).toEqual([500, 500, 101]);
  });

  it('keeps a record while a write-back attribute awaits review; hashes what the write-back reads', () => {
    const record = catalogRecord(sku(1), [
      { key: 'seoTitle', value: 'x', blame: 'ENRICHMENT' },
      { key: 'material', value: 'Linen', blame: 'ENRICHMENT_APPROVED' },
      { key: 'fit', value: 'Slim', blame: 'ENRICHMENT' },
    ]);
    expect(awaitingReview(record, ['seoTitle', 'material'])).toEqual(['seoTitle']);
    const before = recordContentHash(record, ['seoTitle', 'material']);
    const unrelated = structuredClone(record);
    (unrelated.attributes[2] as { value: string }).value = 'Regular';
    expect(recordContentHash(unrelated, ['seoTitle', 'material'])).toBe(before);
    const reviewed = structuredClone(record);
    (reviewed.attributes[0] as { blame: string }).blame = 'ENRICHMENT_APPROVED';
    expect(recordContentHash(reviewed, ['seoTitle', 'material'])).not.toBe(before);
    expect(awaitingReview(reviewed, ['seoTitle', 'material'])).toEqual([]);
  });
});
