import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CatalogClient } from '#lib/catalog-client';
import { type CatalogSandboxHarness, startCatalogSandbox, type TestAccount } from '#testing/catalog-sandbox';
import { pollChanged } from './poll-finished.js';
import { awaitingReview, recheckWatchlist } from './review-watchlist.js';

const T0 = Date.UTC(2026, 2, 1);
const SEARCH = '/v1/products/search';
const WRITE_BACK = ['seoTitle', 'aiTags'];

/** Bulk fixture records: finished enrichments with write-back content (portal bulk route). */
function finished(prefix: string, count: number, completedAt: number, blame = 'ENRICHMENT_APPROVED') {
  return Array.from({ length: count }, (_, i) => ({
    supplierSku: `${prefix}-${i}`,
    createdAt: T0,
    attributes: [
      { key: 'name', value: `Item ${prefix} ${i}` },
      { key: 'brand', value: 'Acme' },
      { key: 'seoTitle', value: `SEO ${prefix} ${i}`, blame },
    ],
    dataEnrichment: { status: 'FINISHED', completedAt },
  }));
}

// The poller against the catalog sandbox, ties shuffled per request (the sandbox's default,
// asked for by name here): 600 records with one completedAt, each found once, calls counted.
describe('finding finished enrichments in the catalog sandbox', () => {
  let sandbox: CatalogSandboxHarness;
  let account: TestAccount;
  let client: CatalogClient;
  const search = (body: Parameters<CatalogClient['searchProducts']>[0]) => client.searchProducts(body);

  beforeAll(async () => {
    sandbox = await startCatalogSandbox();
    account = await sandbox.createAccount({ behaviour: { searchTieOrder: 'shuffled' } });
    client = new CatalogClient({
      baseUrl: sandbox.url,
      apiKey: account.apiKey,
      rate: { ratePerSecond: 1_000, burst: 100 },
      retry: { maxAttempts: 1 },
    });
    const products = [
      ...finished('early', 30, T0 + 1_000),
      ...finished('tie', 600, T0 + 5_000),
      ...finished('late', 20, T0 + 9_000),
    ];
    const res = await sandbox.portal.post(`/portal/v1/accounts/${account.id}/products/bulk`, { products });
    expect(res.status, JSON.stringify(res.body).slice(0, 300)).toBe(200);
  });
  afterAll(async () => {
    await client.close();
    await sandbox.close();
  });

  it('finds each of 650 records exactly once, 600 of them sharing one completedAt, in two searches', async () => {
    await account.controls.clearRequests();
    const result = await pollChanged(search, {
      field: 'dataEnrichment.completedAt',
      checkpoint: T0,
      overlapMs: 0,
    });
    const skus = result.records.map((r) => r.supplierSku);
    expect(skus).toHaveLength(650);
    expect(new Set(skus).size).toBe(650);
    expect(skus.filter((s) => s.startsWith('tie-'))).toHaveLength(600);
    expect(result).toMatchObject({ complete: true, calls: 2, checkpoint: T0 + 9_000 });
    expect(await account.controls.requests({ path: SEARCH })).toHaveLength(2);
    // Ascending completedAt, as found.
    const times = result.records.map((r) => r.dataEnrichment?.completedAt ?? 0);
    expect([...times].sort((a, b) => a - b)).toEqual(times);
  });

  it('(offset paging over the same set skips and repeats records: why the poller never uses it)', async () => {
    const seen: string[] = [];
    for await (const record of client.iterateProducts({
      filter: { dataEnrichment: { completedAt: { $gt: T0 } } },
      sort: { field: 'dataEnrichment.completedAt', order: 'ASC' },
    }))
      seen.push(record.supplierSku);
    expect(seen).toHaveLength(650);
    expect(new Set(seen).size).toBeLessThan(650);
  });

  it('finds again, within the overlap window, a completedAt written behind the checkpoint', async () => {
    const first = await pollChanged(search, {
      field: 'dataEnrichment.completedAt',
      checkpoint: T0,
      overlapMs: 0,
    });
    const slow = finished('slow', 1, T0 + 8_000);
    expect(
      (await sandbox.portal.post(`/portal/v1/accounts/${account.id}/products/bulk`, { products: slow }))
        .status,
    ).toBe(200);
    const again = await pollChanged(search, {
      field: 'dataEnrichment.completedAt',
      checkpoint: first.checkpoint,
      overlapMs: 2_000,
    });
    expect(again.records.map((r) => r.supplierSku).sort()).toEqual([
      'late-0',
      'late-1',
      'late-10',
      'late-11',
      'late-12',
      'late-13',
      'late-14',
      'late-15',
      'late-16',
      'late-17',
      'late-18',
      'late-19',
      'late-2',
      'late-3',
      'late-4',
      'late-5',
      'late-6',
      'late-7',
      'late-8',
      'late-9',
      'slow-0',
    ]);
    const without = await pollChanged(search, {
      field: 'dataEnrichment.completedAt',
      checkpoint: first.checkpoint,
      overlapMs: 0,
    });
    expect(without.records).toEqual([]);
  });

  it('re-checks a watchlist of 650 skuIds in two searches, and sees an approval made long after completedAt', async () => {
    const pendingOne = finished('review', 1, T0 + 2_000, 'ENRICHMENT');
    const created = await sandbox.portal.post(`/portal/v1/accounts/${account.id}/products/bulk`, {
      products: pendingOne,
    });
    const reviewSku = (created.body.data.skuIds as string[])[0] as string;
    const all = await pollChanged(search, {
      field: 'dataEnrichment.completedAt',
      checkpoint: T0,
      overlapMs: 0,
    });
    const watched = all.records.filter((r) => r.supplierSku !== 'slow-0').map((r) => r.skuId);
    expect(watched).toHaveLength(651);
    const before = all.records.find((r) => r.skuId === reviewSku);
    expect(before && awaitingReview(before, WRITE_BACK)).toEqual(['seoTitle']);

    // The review, much later: completedAt and updatedAt do not move (the sandbox's default).
    const review = await sandbox.portal.post(
      `/portal/v1/accounts/${account.id}/products/${reviewSku}/review`,
      {
        approve: ['seoTitle'],
      },
    );
    expect(review.status, JSON.stringify(review.body)).toBe(200);
    const byTime = await pollChanged(search, {
      field: 'dataEnrichment.completedAt',
      checkpoint: all.checkpoint,
      overlapMs: 0,
    });
    expect(byTime.records).toEqual([]);
    const byUpdate = await pollChanged(search, {
      field: 'updatedAt',
      checkpoint: before?.updatedAt ?? 0,
      overlapMs: 0,
    });
    expect(byUpdate.records.map((r) => r.skuId)).not.toContain(reviewSku);

    await account.controls.clearRequests();
    const recheck = await recheckWatchlist(search, watched);
    expect(recheck.calls).toBe(2);
    expect(await account.controls.requests({ path: SEARCH })).toHaveLength(2);
    expect(recheck.records).toHaveLength(651);
    expect(recheck.missing).toEqual([]);
    const after = recheck.records.find((r) => r.skuId === reviewSku);
    expect(after && awaitingReview(after, WRITE_BACK)).toEqual([]);
    expect(after?.attributes.find((a) => a.key === 'seoTitle')?.blame).toBe('ENRICHMENT_APPROVED');
  });
});
