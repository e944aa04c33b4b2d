import { describe, expect, it } from 'vitest';
import type { ProductRecord, ProductSearchRequest } from '#lib/catalog-contract';
import { InMemoryCatalogSearch } from '../../../test/support/catalog-search-stub.js';
import { approved, catalogRecord, pending } from '../../../test/support/write-back-mapping.js';
import { recordsFromSnapshot } from '../store/record-snapshot.js';
import type { SearchProducts } from './poll-finished.js';
import { readProductSnapshots } from './product-snapshots.js';
import { type WalkChangesOptions, type WalkCheckpoints, walkChanges } from './walk-changes.js';

const T0 = Date.UTC(2026, 10, 1);
const NONE: WalkCheckpoints = { updatedAt: null, 'dataEnrichment.completedAt': null };

function finished(skuId: string, completedAt: number, updatedAt: number): ProductRecord {
  const record = catalogRecord(skuId, [approved('seoTitle', `Title ${skuId}`), pending('material', 'wool')]);
  record.dataEnrichment = { taskId: 'TK00000001', status: 'FINISHED', completedAt };
  record.updatedAt = updatedAt;
  return record;
}

/** The catalog with `count` records finished and approved at T0 + i (updatedAt as well). */
function catalogOf(count: number): InMemoryCatalogSearch {
  const catalog = new InMemoryCatalogSearch();
  for (let i = 0; i < count; i++) catalog.put(finished(`SK${String(i).padStart(8, '0')}`, T0 + i, T0 + i));
  return catalog;
}

/** Records returned over all searches (a record paged through twice counts twice). */
function returned(catalog: InMemoryCatalogSearch) {
  let total = 0;
  const search = async (body: ProductSearchRequest) => {
    const answer = await catalog.search(body);
    total += answer.products.length;
    return answer;
  };
  return { search, total: () => total };
}

/** `walkChanges` with its pages gathered by skuId (a record read twice: its later read). */
async function collected(search: SearchProducts, options: Omit<WalkChangesOptions, 'onPage'>) {
  const records = new Map<string, ProductRecord>();
  const walk = await walkChanges(search, {
    ...options,
    onPage: async (page) => {
      for (const record of page) {
        records.delete(record.skuId);
        records.set(record.skuId, record);
      }
    },
  });
  return { ...walk, records };
}

describe('walking both fields of a poll, each changed record once', () => {
  it('catches up 1,200 records in 3 searches (the first poll walks updatedAt alone), the pushes in none', async () => {
    const catalog = catalogOf(1_200);
    const walk = await collected(catalog.search, { checkpoints: NONE, overlapMs: 300_000 });
    expect(walk.records.size).toBe(1_200);
    expect(walk.calls).toBe(3);
    expect(catalog.bodies.map((b) => b.sort?.field)).toEqual(['updatedAt', 'updatedAt', 'updatedAt']);
    expect(walk.checkpoints).toEqual({ updatedAt: T0 + 1_199, 'dataEnrichment.completedAt': T0 + 1_199 });

    // Simple products: every record of every product was read, so the pushes need no search.
    const products = new Map([...walk.records.keys()].map((skuId) => [`p-${skuId}`, [skuId]]));
    const read = await readProductSnapshots(catalog.search, {
      products,
      read: walk.records,
      attributes: ['seoTitle', 'material'],
      at: T0,
    });
    expect(read.calls).toBe(0);
    for (const [productId, skuIds] of products) {
      const records = recordsFromSnapshot(read.snapshots.get(productId), {
        skuIds,
        attributes: ['seoTitle'],
        now: T0 + 60_000,
        maxAgeMs: 1_800_000,
      });
      expect(records?.get(skuIds[0] as string)?.attributes.map((a) => a.key)).toEqual([
        'seoTitle',
        'material',
      ]);
    }
    expect(catalog.bodies).toHaveLength(3);
  });

  it('later finds finished enrichments whichever field moved, each once: 1,200 changed records in 3 searches', async () => {
    const catalog = catalogOf(2_000);
    const first = await collected(catalog.search, { checkpoints: NONE, overlapMs: 0 });
    const later = T0 + 100_000;
    // 700 finish again without moving updatedAt (the sandbox's default), 500 are approved and
    // move updatedAt, 300 of those also finishing again: neither walk can stand in for the other.
    for (let i = 0; i < 700; i++) {
      const r = catalog.records.get(`SK${String(i).padStart(8, '0')}`) as ProductRecord;
      catalog.put(finished(r.skuId, later + i, r.updatedAt));
    }
    for (let i = 700; i < 1_200; i++) {
      const r = catalog.records.get(`SK${String(i).padStart(8, '0')}`) as ProductRecord;
      const completedAt = i < 1_000 ? later + i : (r.dataEnrichment?.completedAt as number);
      catalog.put(finished(r.skuId, completedAt, later + i));
    }
    catalog.bodies.length = 0;
    const count = returned(catalog);
    const walk = await collected(count.search, { checkpoints: first.checkpoints, overlapMs: 0 });
    expect([...walk.records.keys()].sort()).toEqual(
      Array.from({ length: 1_200 }, (_, i) => `SK${String(i).padStart(8, '0')}`),
    );
    expect(count.total()).toBe(1_200);
    expect(walk.calls).toBe(3);
    // The completedAt walk asks only below the updatedAt walk's start.
    const byCompletion = catalog.bodies.filter((b) => b.sort?.field === 'dataEnrichment.completedAt');
    expect(byCompletion).toHaveLength(2);
    for (const body of byCompletion) expect(body.filter?.updatedAt).toEqual({ $lte: T0 + 1_999 });
    expect(walk.checkpoints).toEqual({ updatedAt: later + 1_199, 'dataEnrichment.completedAt': later + 999 });

    // Nothing changed since: one empty search per walk.
    const idle = await collected(catalog.search, { checkpoints: walk.checkpoints, overlapMs: 0 });
    expect([idle.records.size, idle.calls]).toEqual([0, 2]);
  });

  it('finds, in the overlap window, an enrichment that finished behind the first walk without moving updatedAt', async () => {
    const catalog = catalogOf(10);
    const first = await collected(catalog.search, { checkpoints: NONE, overlapMs: 60_000 });
    expect(first.checkpoints['dataEnrichment.completedAt']).toBe(T0 + 9);
    // Passed by the walk before it finished: its completedAt is behind the checkpoint.
    const old = catalogRecord('SK99999999', [approved('seoTitle', 'late')]);
    old.updatedAt = T0 - 50_000;
    old.dataEnrichment = { taskId: 'TK00000002', status: 'FINISHED', completedAt: T0 + 5 };
    catalog.put(old);
    const next = await collected(catalog.search, { checkpoints: first.checkpoints, overlapMs: 60_000 });
    expect(next.records.has('SK99999999')).toBe(true);
    const without = await collected(catalog.search, { checkpoints: first.checkpoints, overlapMs: 0 });
    expect(without.records.has('SK99999999')).toBe(false);
  });

  it('goes on where a walk stopped at maxCalls, missing nothing', async () => {
    const catalog = catalogOf(1_100);
    const first = await collected(catalog.search, { checkpoints: NONE, overlapMs: 0, maxCalls: 1 });
    expect([first.records.size, first.calls]).toEqual([500, 1]);
    const seen = new Set(first.records.keys());
    let checkpoints = first.checkpoints;
    for (let i = 0; i < 3; i++) {
      const next = await collected(catalog.search, { checkpoints, overlapMs: 0, maxCalls: 1 });
      for (const skuId of next.records.keys()) seen.add(skuId);
      checkpoints = next.checkpoints;
    }
    expect(seen.size).toBe(1_100);
  });

  it('resumes where a walk cut short stopped, though more records changed inside the overlap than maxCalls pages', async () => {
    const catalog = catalogOf(10);
    const overlapMs = 300_000;
    const first = await collected(catalog.search, { checkpoints: NONE, overlapMs });
    // A bulk approval: 60 records move updatedAt within the overlap window (at reduced scale:
    // pages of 10, 2 calls per walk, so 20 records per poll).
    const later = T0 + 100_000;
    for (let i = 0; i < 60; i++) {
      const skuId = `SB${String(i).padStart(8, '0')}`;
      catalog.put(finished(skuId, later + i, later + i));
    }
    const seen = new Set<string>();
    let checkpoints = first.checkpoints;
    let resume = first.cutShort;
    const moved: Array<number | null> = [];
    for (let poll = 0; poll < 10; poll++) {
      const next = await collected(catalog.search, {
        checkpoints,
        resume,
        overlapMs,
        maxCalls: 2,
        pageSize: 10,
      });
      for (const skuId of next.records.keys()) seen.add(skuId);
      ({ checkpoints, cutShort: resume } = next);
      moved.push(checkpoints.updatedAt);
    }
    expect([...seen].filter((s) => s.startsWith('SB'))).toHaveLength(60);
    expect(checkpoints.updatedAt).toBe(later + 59);
    // It kept moving (20 records a poll), and never went back.
    expect(moved.indexOf(later + 59)).toBeLessThanOrEqual(3);
    expect(moved).toEqual([...moved].sort((a, b) => (a as number) - (b as number)));
  });
  it('hands each changed record to onPage in pages of at most 500, holding none', async () => {
    const catalog = catalogOf(2_000);
    for (let i = 0; i < 1_200; i++) {
      const r = catalog.records.get(`SK${String(i).padStart(8, '0')}`) as ProductRecord;
      catalog.put(finished(r.skuId, T0 + 100_000 + i, i < 700 ? r.updatedAt : T0 + 100_000 + i));
    }
    const pages: string[][] = [];
    const walk = await walkChanges(catalog.search, {
      checkpoints: { updatedAt: T0 + 1_999, 'dataEnrichment.completedAt': T0 + 1_999 },
      overlapMs: 0,
      onPage: async (page) => {
        pages.push(page.map((r) => r.skuId));
      },
    });
    expect(pages.map((page) => page.length)).toEqual([500, 500, 200]);
    expect(pages.flat().sort()).toEqual(
      Array.from({ length: 1_200 }, (_, i) => `SK${String(i).padStart(8, '0')}`),
    );
    expect(walk.checkpoints).toEqual({
      updatedAt: T0 + 100_000 + 1_199,
      'dataEnrichment.completedAt': T0 + 100_000 + 1_199,
    });
    expect(walk.calls).toBe(3);
  });
});
