import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '#lib/clock';
import {
  attr,
  type CatalogSandboxHarness,
  productBody,
  startCatalogSandbox,
  type TestAccount,
} from './harness.js';

const STEP_MS = 1000;
type Entry = { key: string; value: unknown; blame?: string; sources?: Array<{ id: string; type: string }> };
type Product = {
  skuId: string;
  updatedAt: number;
  attributes: Entry[];
  dataEnrichment?: { taskId: string; status: string; completedAt?: number };
  attributeSummary: {
    enrichableTotal: number;
    enrichableCompleted: number;
    enrichableCompletionRate: number;
  };
};

/** Enrichable for a simple T-shirt in the default seed (AI on, CUSTOM or LIB, applicable). */
const TEE_ENRICHABLE = [
  'color',
  'weightGrams',
  'variantTitle',
  'material',
  'careInstructions',
  'fit',
  'neckline',
  'occasions',
  'manufacturerUrl',
  'aiTitle',
  'aiDescription',
  'seoTitle',
  'seoDescription',
  'aiTags',
  'aiBulletPoints',
];

describe('catalog sandbox: enrichment runs', () => {
  const clock = new ManualClock(Date.UTC(2026, 3, 1));
  let sandbox: CatalogSandboxHarness;
  let account: TestAccount;
  beforeAll(async () => {
    sandbox = await startCatalogSandbox({ clock });
    account = await sandbox.createAccount();
  });
  afterAll(() => sandbox.close());

  const runs = () => `/portal/v1/accounts/${account.id}/enrichment/runs`;
  const read = async (skuId: string): Promise<Product> =>
    (await account.api.get(`/v1/products/${skuId}`)).body.data;
  /** Creates a product: name and brand (Acme) as productBody gives them, unless `extra` sets them. */
  async function create(supplierSku: string, extra: Array<{ key: string; value: unknown }> = []) {
    const body = productBody(supplierSku);
    const given = new Set(extra.map((e) => e.key));
    body.product.attributes = [...body.product.attributes.filter((a) => !given.has(a.key)), ...extra];
    const res = await account.api.post('/v1/products', body);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return res.body.data as Product;
  }
  /** A T-shirt with a real productModel; `extra` adds or replaces attributes. */
  function tee(supplierSku: string, extra: Array<{ key: string; value: unknown }> = []) {
    const attributes = new Map<string, unknown>([
      ['name', 'Basic tee'],
      ['productCategory', 'apparel-tops-tshirts'],
      ['productModel', 'AT-1000'],
    ]);
    for (const { key, value } of extra) attributes.set(key, value);
    return create(
      supplierSku,
      [...attributes].map(([key, value]) => ({ key, value })),
    );
  }
  async function start(body: unknown) {
    const res = await sandbox.portal.post(runs(), body);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return res.body.data;
  }

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
