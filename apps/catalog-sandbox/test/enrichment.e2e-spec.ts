import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '#lib/clock';
import {
  attr,
  type CatalogSandboxHarness,
  startCatalogSandbox,
  type TestAccount,
} from '#testing/catalog-sandbox';
import { type Entry, enrichmentKit, STEP_MS, TEE_ENRICHABLE } from './enrichment-fixture.js';

describe('catalog sandbox: enrichment runs', () => {
  const clock = new ManualClock(Date.UTC(2026, 3, 1));
  let sandbox: CatalogSandboxHarness;
  let account: TestAccount;
  beforeAll(async () => {
    sandbox = await startCatalogSandbox({ clock });
    account = await sandbox.createAccount();
  });
  afterAll(() => sandbox.close());
  const { runs, read, tee, start } = enrichmentKit(
    () => sandbox,
    () => account,
  );

  it('takes a product QUEUED, IN_PROGRESS, then FINISHED, filling only attributes without a user value', async () => {
    const product = await tee('enrich-1', [{ key: 'aiTitle', value: 'My own title' }]);
    expect(product).not.toHaveProperty('dataEnrichment');
    const run = await start({ skuIds: [product.skuId] });
    expect(run).toMatchObject({ runId: expect.any(String), mode: 'auto', status: 'RUNNING', total: 1 });
    const taskId = run.items[0].taskId;
    expect(taskId).toMatch(/^TK\d{8}$/);
    expect((await read(product.skuId)).dataEnrichment).toEqual({ taskId, status: 'QUEUED' });

    await clock.advance(STEP_MS);
    expect((await read(product.skuId)).dataEnrichment).toEqual({ taskId, status: 'IN_PROGRESS' });
    await clock.advance(STEP_MS);
    const done = await read(product.skuId);
    expect(done.dataEnrichment).toEqual({ taskId, status: 'FINISHED', completedAt: clock.now() });
    expect(done.updatedAt).toBe(product.updatedAt);
    expect(attr(done, 'aiTitle')).toEqual({ key: 'aiTitle', value: 'My own title' });
    for (const key of TEE_ENRICHABLE.filter((k) => k !== 'aiTitle')) {
      const entry = attr(done, key) as Entry;
      expect(entry.value, key).not.toBeNull();
      expect(entry.blame, key).toBe('ENRICHMENT');
      expect(entry.sources?.length, key).toBeGreaterThan(0);
    }
    for (const key of ['size', 'gtin', 'releaseDate', 'legacyCode', 'description', 'bladeLengthCm']) {
      expect(attr(done, key), key).toEqual({ key, value: null });
    }
    expect(done.attributeSummary).toEqual({
      enrichableTotal: TEE_ENRICHABLE.length,
      enrichableCompleted: TEE_ENRICHABLE.length,
      enrichableCompletionRate: 100,
    });
    const view = (await sandbox.portal.get(`${runs()}/${run.runId}`)).body.data;
    expect(view).toMatchObject({ status: 'DONE', steps: 2, counts: { FINISHED: 1 } });
    expect(view.items[0].filled).toHaveLength(TEE_ENRICHABLE.length - 1);
    const found = await account.api.post('/v1/products/search', {
      filter: { dataEnrichment: { status: { $in: ['FINISHED'] } }, skuId: { $eq: product.skuId } },
    });
    expect(found.body.data.pagination.total).toBe(1);
  });

  it('is deterministic, and keeps user values written while the run is in progress', async () => {
    const a = await tee('det-a');
    const b = await tee('det-b');
    const run = await start({ skuIds: [a.skuId, b.skuId], mode: 'manual' });
    await sandbox.portal.post(`${runs()}/${run.runId}/step`);
    await account.api.patch(`/v1/products/${b.skuId}`, {
      product: { attributes: [{ key: 'material', value: 'Wool' }] },
    });
    await sandbox.portal.post(`${runs()}/${run.runId}/step`);
    const [ra, rb] = [await read(a.skuId), await read(b.skuId)];
    expect(attr(rb, 'material')).toEqual({ key: 'material', value: 'Wool' });
    for (const key of TEE_ENRICHABLE.filter((k) => k !== 'material'))
      expect(attr(rb, key)).toEqual(attr(ra, key));
  });

  it('advances a manual run step by step, batchSize records at a time', async () => {
    const p = [await tee('man-1'), await tee('man-2')];
    const run = await start({ skuIds: p.map((x) => x.skuId), mode: 'manual', batchSize: 1 });
    const statuses = async () =>
      Promise.all(p.map(async (x) => (await read(x.skuId)).dataEnrichment?.status));
    const step = () => sandbox.portal.post(`${runs()}/${run.runId}/step`);
    await clock.advance(60_000);
    expect(await statuses()).toEqual(['QUEUED', 'QUEUED']);
    await step();
    expect(await statuses()).toEqual(['IN_PROGRESS', 'QUEUED']);
    await step();
    expect(await statuses()).toEqual(['FINISHED', 'IN_PROGRESS']);
    const last = await step();
    expect(await statuses()).toEqual(['FINISHED', 'FINISHED']);
    expect(last.body.data).toMatchObject({ status: 'DONE', steps: 3, counts: { FINISHED: 2, QUEUED: 0 } });
    expect((await step()).status).toBe(409);
  });

  it('refreshes ENRICHMENT values and refuses records already in an unfinished run', async () => {
    const product = await tee('again');
    const first = await start({ skuIds: [product.skuId], mode: 'manual' });
    const busy = await sandbox.portal.post(runs(), { skuIds: [product.skuId] });
    expect(busy.status).toBe(409);
    expect(busy.body.error.details).toEqual({ skuIds: [product.skuId], runIds: [first.runId] });
    await sandbox.portal.post(`${runs()}/${first.runId}/step`);
    await sandbox.portal.post(`${runs()}/${first.runId}/step`);
    const once = await read(product.skuId);
    const second = await start({ skuIds: [product.skuId], mode: 'manual' });
    expect((await read(product.skuId)).dataEnrichment).toEqual({
      taskId: second.items[0].taskId,
      status: 'QUEUED',
    });
    await sandbox.portal.post(`${runs()}/${second.runId}/step`);
    const refreshed = (await sandbox.portal.post(`${runs()}/${second.runId}/step`)).body.data;
    expect(refreshed.items[0].filled).toHaveLength(TEE_ENRICHABLE.length);
    expect((await read(product.skuId)).attributes).toEqual(once.attributes);
  });

  it('enriches variant-specific attributes on variants and the rest at the parent', async () => {
    const parent = await tee('fam');
    const variant = await account.api.post('/v1/variants', {
      parentSupplierSku: 'fam',
      supplierSku: 'fam-m',
      attributes: [
        { key: 'size', value: 'M' },
        { key: 'color', value: 'Navy' },
      ],
    });
    const variantSku = variant.body.data.skuId as string;
    const run = await start({ skuIds: [parent.skuId, variantSku], mode: 'manual' });
    await sandbox.portal.post(`${runs()}/${run.runId}/step`);
    const done = (await sandbox.portal.post(`${runs()}/${run.runId}/step`)).body.data;
    const [parentItem, variantItem] = done.items;
    const variantSpecific = ['color', 'weightGrams', 'variantTitle'];
    expect(parentItem.filled.sort()).toEqual(
      TEE_ENRICHABLE.filter((k) => !variantSpecific.includes(k)).sort(),
    );
    expect(variantItem.filled.sort()).toEqual(['variantTitle', 'weightGrams']);
    const v = (await account.api.get(`/v1/variants/${variantSku}`)).body.data;
    expect(attr(v, 'color')).toEqual({ key: 'color', value: 'Navy' });
    expect(attr(v, 'variantTitle')?.value).toContain('M / Navy');
    expect(attr(v, 'aiTitle')).toMatchObject({ blame: 'ENRICHMENT', inherited: true });
    expect(attr(await read(parent.skuId), 'weightGrams')).toEqual({ key: 'weightGrams', value: null });
  });
});
