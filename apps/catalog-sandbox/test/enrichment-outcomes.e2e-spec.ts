import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '#lib/clock';
import {
  attr,
  type CatalogSandboxHarness,
  productBody,
  startCatalogSandbox,
  type TestAccount,
} from '#testing/catalog-sandbox';
import { type Entry, enrichmentKit, STEP_MS } from './enrichment-fixture.js';

describe('catalog sandbox: enrichment outcomes (failed, poorer, classified, skipped, deleted)', () => {
  const clock = new ManualClock(Date.UTC(2026, 3, 1));
  let sandbox: CatalogSandboxHarness;
  let account: TestAccount;
  beforeAll(async () => {
    sandbox = await startCatalogSandbox({ clock });
    account = await sandbox.createAccount();
  });
  afterAll(() => sandbox.close());
  const { runs, read, create, tee, start } = enrichmentKit(
    () => sandbox,
    () => account,
  );

  it('fails a product without productModel with enrichment_failed, writing nothing', async () => {
    const product = await create('no-model', [{ key: 'productCategory', value: 'apparel-tops-tshirts' }]);
    const run = await start({ skuIds: [product.skuId], mode: 'manual' });
    await sandbox.portal.post(`${runs()}/${run.runId}/step`);
    const done = (await sandbox.portal.post(`${runs()}/${run.runId}/step`)).body.data;
    expect(done.items[0]).toMatchObject({
      status: 'FAILED',
      filled: [],
      error: { code: 'enrichment_failed', details: { productModel: null, suggestion: expect.any(String) } },
    });
    const after = await read(product.skuId);
    expect(after.dataEnrichment).toMatchObject({ status: 'FAILED', completedAt: clock.now() });
    expect(after.attributes.some((a) => a.blame !== undefined)).toBe(false);
  });

  it('gives poorer results for an internal-looking productModel: text from your data only', async () => {
    const product = await tee('internal', [{ key: 'productModel', value: 'INT-0042' }]);
    const run = await start({ skuIds: [product.skuId], mode: 'manual' });
    await sandbox.portal.post(`${runs()}/${run.runId}/step`);
    const item = (await sandbox.portal.post(`${runs()}/${run.runId}/step`)).body.data.items[0];
    expect(item.status).toBe('FINISHED');
    expect(item.filled.sort()).toEqual(
      [
        'variantTitle',
        'material',
        'careInstructions',
        'aiTitle',
        'aiDescription',
        'seoTitle',
        'seoDescription',
        'aiBulletPoints',
      ].sort(),
    );
    const after = await read(product.skuId);
    expect((attr(after, 'aiTitle') as Entry).sources?.map((s) => s.type)).toEqual(['YOUR_DATA']);
    expect(after.attributeSummary.enrichableCompleted).toBe(8);
  });

  it('classifies a product without category to a leaf: blame ENRICHMENT, no sources, not counted', async () => {
    const product = await create('knife', [
      { key: 'name', value: 'Chef knife 20 cm' },
      { key: 'description', value: '<p>Forged kitchen knife.</p>' },
      { key: 'productModel', value: 'CK-20' },
    ]);
    const run = await start({ skuIds: [product.skuId], mode: 'manual' });
    await sandbox.portal.post(`${runs()}/${run.runId}/step`);
    const item = (await sandbox.portal.post(`${runs()}/${run.runId}/step`)).body.data.items[0];
    expect(item.classifiedCategory).toBe('home-kitchen-knives');
    const after = await read(product.skuId);
    expect(attr(after, 'productCategory')).toEqual({
      key: 'productCategory',
      value: 'home-kitchen-knives',
      blame: 'ENRICHMENT',
    });
    expect(attr(after, 'bladeLengthCm')).toMatchObject({
      value: expect.stringMatching(/^\d+$/),
      blame: 'ENRICHMENT',
    });
    expect(item.filled).not.toContain('productCategory');
    expect(after.attributeSummary.enrichableTotal).toBe(item.filled.length);
  });

  it('skips a product with nothing to enrich', async () => {
    const plain = await sandbox.createAccount({
      attributes: [],
      taxonomy: [{ id: 'only', name: 'Only', children: [] }],
    });
    const res = await plain.api.post(
      '/v1/products',
      productBody('nothing', [{ key: 'productCategory', value: 'only' }]),
    );
    const skuId = res.body.data.skuId;
    const run = await sandbox.portal.post(`/portal/v1/accounts/${plain.id}/enrichment/runs`, {
      skuIds: [skuId],
      mode: 'manual',
    });
    const step = () =>
      sandbox.portal.post(`/portal/v1/accounts/${plain.id}/enrichment/runs/${run.body.data.runId}/step`);
    await step();
    expect((await step()).body.data.items[0]).toMatchObject({ status: 'SKIPPED', filled: [] });
    expect((await plain.api.get(`/v1/products/${skuId}`)).body.data.dataEnrichment).toMatchObject({
      status: 'SKIPPED',
    });
  });

  it('changes updatedAt on filled values only with enrichmentTouchesUpdatedAt', async () => {
    const touchy = await sandbox.createAccount({ behaviour: { enrichmentTouchesUpdatedAt: true } });
    const res = await touchy.api.post(
      '/v1/products',
      productBody('t', [{ key: 'productModel', value: 'X-1' }]),
    );
    const { skuId, updatedAt } = res.body.data;
    await sandbox.portal.post(`/portal/v1/accounts/${touchy.id}/enrichment/runs`, { skuIds: [skuId] });
    await clock.advance(STEP_MS);
    expect((await touchy.api.get(`/v1/products/${skuId}`)).body.data.updatedAt).toBe(updatedAt);
    await clock.advance(STEP_MS);
    expect((await touchy.api.get(`/v1/products/${skuId}`)).body.data.updatedAt).toBe(clock.now());
  });

  it('reports records deleted during a run as DELETED', async () => {
    const product = await tee('gone');
    const run = await start({ skuIds: [product.skuId], mode: 'manual' });
    await sandbox.portal.post(`${runs()}/${run.runId}/step`);
    await account.api.delete(`/v1/products/${product.skuId}`);
    const done = (await sandbox.portal.post(`${runs()}/${run.runId}/step`)).body.data;
    expect(done).toMatchObject({ status: 'DONE', counts: { DELETED: 1 } });
  });

  it('validates run requests', async () => {
    const product = await tee('valid');
    const bad = async (body: unknown, status: number) => {
      const res = await sandbox.portal.post(runs(), body);
      expect(res.status, JSON.stringify(body)).toBe(status);
      return res.body.error;
    };
    await bad({}, 400);
    await bad({ skuIds: [] }, 400);
    await bad({ skuIds: [product.skuId, product.skuId] }, 400);
    await bad({ skuIds: [product.skuId], mode: 'fast' }, 400);
    await bad({ skuIds: [product.skuId], batchSize: 0 }, 400);
    expect((await bad({ skuIds: [product.skuId, 'SK99999999'] }, 404)).details.skuIds).toEqual([
      'SK99999999',
    ]);
    expect((await sandbox.portal.get(`${runs()}/run_nope`)).status).toBe(404);
    const auto = await start({ skuIds: [product.skuId] });
    expect((await sandbox.portal.post(`${runs()}/${auto.runId}/step`)).status).toBe(409);
    const listed = (await sandbox.portal.get(runs())).body.data.runs;
    expect(listed.at(-1)).toMatchObject({ runId: auto.runId, total: 1 });
    expect(listed.at(-1)).not.toHaveProperty('items');
  });
});
