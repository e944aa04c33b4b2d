import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DataEnrichment } from '#lib/catalog-contract';
import { ManualClock } from '#lib/clock';
import {
  attr,
  type CatalogSandboxHarness,
  productBody,
  startCatalogSandbox,
  type TestAccount,
} from '#testing/catalog-sandbox';
import { AccountRegistry } from '../src/accounts/account.registry.js';

const T0 = 1_700_000_000_000;
const SEARCH = '/v1/products/search';

interface Found {
  skuId: string;
  supplierSku: string;
}

describe('catalog sandbox: product search', () => {
  const clock = new ManualClock(T0);
  let sandbox: CatalogSandboxHarness;
  let account: TestAccount;
  /** supplierSku -> skuId of every record created by the fixture. */
  const sku: Record<string, string> = {};

  const search = (body: unknown) => account.api.post(SEARCH, body);
  /** supplierSkus of the matches (whole result: limit 500). */
  async function found(filter: unknown, sort?: unknown): Promise<string[]> {
    const res = await search({ filter, sort, pagination: { limit: 500 } });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return res.body.data.products.map((p: Found) => p.supplierSku);
  }
  async function create(supplierSku: string, extra: Array<{ key: string; value: unknown }> = []) {
    const res = await account.api.post('/v1/products', productBody(supplierSku, extra));
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    sku[supplierSku] = res.body.data.skuId;
  }
  /** Fixture shortcut: no API sets dataEnrichment until enrichment runs exist. */
  function enrich(supplierSku: string, dataEnrichment: DataEnrichment) {
    const stored = sandbox.app
      .get(AccountRegistry)
      .require(account.id)
      .products.get(sku[supplierSku] as string);
    if (!stored) throw new Error(`no record ${supplierSku}`);
    stored.dataEnrichment = dataEnrichment;
  }

  beforeAll(async () => {
    sandbox = await startCatalogSandbox({ clock, env: { CATALOG_SANDBOX_RATE_LIMIT: 'false' } });
    // knife-1 and boot-1 share a createdAt: these tests list exact orders, so they ask for the
    // stable tie order (the default shuffles ties per request: see tie-order.e2e-spec.ts).
    account = await sandbox.createAccount({ behaviour: { searchTieOrder: 'creation' } });
    clock.set(T0 + 1_000);
    await create('tee-1', [
      { key: 'price', value: '10' },
      { key: 'productCategory', value: 'apparel-tops-tshirts' },
      { key: 'occasions', value: ['Casual', 'Sport'] },
      { key: 'material', value: 'Organic Cotton' },
    ]);
    clock.set(T0 + 2_000);
    await create('tee-2', [
      { key: 'price', value: '9' },
      { key: 'productCategory', value: 'apparel-tops-tshirts' },
      { key: 'occasions', value: ['Work'] },
    ]);
    clock.set(T0 + 3_000);
    await create('knife-1', [
      { key: 'price', value: '120' },
      { key: 'productCategory', value: 'home-kitchen-knives' },
      { key: 'bladeLengthCm', value: '20' },
    ]);
    clock.set(T0 + 3_000);
    await create('boot-1', [{ key: 'productCategory', value: 'footwear-boots' }]);
    clock.set(T0 + 4_000);
    const variant = await account.api.post('/v1/variants', {
      parentSupplierSku: 'tee-1',
      supplierSku: 'tee-1-red-m',
      attributes: [
        { key: 'size', value: 'M' },
        { key: 'color', value: 'Red' },
      ],
    });
    expect(variant.status, JSON.stringify(variant.body)).toBe(200);
    sku['tee-1-red-m'] = variant.body.data.skuId;
    clock.set(T0 + 5_000);
    await create('long-1', [{ key: 'description', value: `${'a'.repeat(50_000)}b` }]);
    clock.set(T0 + 6_000);
    const patch = await account.api.patch(`/v1/products/${sku['tee-2']}`, {
      product: { supplierSku: 'tee-2', attributes: [{ key: 'price', value: '8' }] },
    });
    expect(patch.status, JSON.stringify(patch.body)).toBe(200);
    enrich('tee-1', { taskId: 'TK00000001', status: 'FINISHED', completedAt: T0 + 10_000 });
    enrich('tee-2', { taskId: 'TK00000002', status: 'FAILED', completedAt: T0 + 20_000 });
    enrich('knife-1', { taskId: 'TK00000003', status: 'IN_PROGRESS' });
  });
  afterAll(() => sandbox.close());

  const ALL = ['tee-1', 'tee-2', 'knife-1', 'boot-1', 'tee-1-red-m', 'long-1'];

  it('returns full product records and the pagination block; an empty filter matches every record', async () => {
    const res = await search({});
    expect(res.status).toBe(200);
    expect(res.body.errorCode).toBe(0);
    expect(res.body.data.pagination).toEqual({ limit: 20, offset: 0, total: 6, hasMore: false });
    const products = res.body.data.products;
    expect(products.map((p: Found) => p.supplierSku)).toEqual(ALL);
    const tee = products[0];
    const get = await account.api.get(`/v1/products/${tee.skuId}`);
    expect(tee).toEqual(get.body.data);
    expect(attr(tee, 'price')?.value).toBe('10');
    expect(tee.dataEnrichment).toEqual({
      taskId: 'TK00000001',
      status: 'FINISHED',
      completedAt: T0 + 10_000,
    });
  });

  it('filters on top-level fields with operator objects', async () => {
    expect(await found({ supplierSku: { $eq: 'tee-2' } })).toEqual(['tee-2']);
    expect(await found({ supplierSku: { $in: ['boot-1', 'tee-1', 'nope'] } })).toEqual(['tee-1', 'boot-1']);
    expect(await found({ supplierSku: { $regex: '^tee-1' } })).toEqual(['tee-1', 'tee-1-red-m']);
    expect(await found({ supplierSku: { $ne: 'tee-1', $nin: ['tee-2', 'long-1'] } })).toEqual([
      'knife-1',
      'boot-1',
      'tee-1-red-m',
    ]);
    expect(await found({ skuId: { $eq: sku['knife-1'] } })).toEqual(['knife-1']);
    expect(await found({ skuId: { $nin: [sku['tee-1'], sku['tee-2']] } })).toHaveLength(4);
    expect(await found({ createdAt: { $gte: T0 + 2_000, $lte: T0 + 3_000 } })).toEqual([
      'tee-2',
      'knife-1',
      'boot-1',
    ]);
    expect(await found({ createdAt: { $gt: T0 + 3_000 } })).toEqual(['tee-1-red-m', 'long-1']);
    expect(await found({ updatedAt: { $gte: T0 + 6_000 } })).toEqual(['tee-2']);
    expect(await found({ skuId: { $exists: true }, createdAt: { $lt: T0 + 2_000 } })).toEqual(['tee-1']);
  });

  it('finds a variant by its supplierSku and by values it inherits', async () => {
    const res = await search({ filter: { supplierSku: { $eq: 'tee-1-red-m' } } });
    expect(res.body.data.products).toHaveLength(1);
    expect(res.body.data.products[0]).toMatchObject({ skuId: sku['tee-1-red-m'], parentSkuId: sku['tee-1'] });
    const category = { key: { $eq: 'productCategory' }, value: { $eq: 'apparel-tops-tshirts' } };
    expect(await found({ attributes: [category] })).toEqual(['tee-1', 'tee-2', 'tee-1-red-m']);
    expect(await found({ attributes: [category, { key: { $eq: 'size' }, value: { $eq: 'M' } }] })).toEqual([
      'tee-1-red-m',
    ]);
  });

  it('searches keyword case-insensitively in supplierSku and attribute values, inherited ones included', async () => {
    expect(await found({ keyword: 'KNIFE' })).toEqual(['knife-1']);
    expect(await found({ keyword: 'organic cot' })).toEqual(['tee-1', 'tee-1-red-m']);
    expect(await found({ keyword: 'sport' })).toEqual(['tee-1', 'tee-1-red-m']);
    expect(await found({ keyword: 'product boot' })).toEqual(['boot-1']);
    expect(await found({ keyword: 'no such text' })).toEqual([]);
  });

  it('combines attribute criteria with AND, comparing numbers and prices as strings', async () => {
    const price = (value: unknown) => ({ attributes: [{ key: { $eq: 'price' }, value }] });
    // Strings: "10" < "9" and "120" < "9".
    expect(await found(price({ $gt: '9' }))).toEqual([]);
    expect(await found(price({ $lt: '9' }))).toEqual(['tee-1', 'tee-2', 'knife-1', 'tee-1-red-m']);
    expect(await found(price({ $gte: '8', $lte: '8' }))).toEqual(['tee-2']);
    expect(await found(price({ $in: ['10', '8'] }))).toEqual(['tee-1', 'tee-2', 'tee-1-red-m']);
    expect(
      await found({
        attributes: [
          { key: { $eq: 'price' }, value: { $regex: '^1' } },
          { key: { $eq: 'productCategory' }, value: { $eq: 'home-kitchen-knives' } },
        ],
      }),
    ).toEqual(['knife-1']);
  });

  it('matches array values on any element, $ne/$nin on none, and $exists false on no value', async () => {
    const occasions = (value: unknown) => ({ attributes: [{ key: { $eq: 'occasions' }, value }] });
    expect(await found(occasions({ $eq: 'Sport' }))).toEqual(['tee-1', 'tee-1-red-m']);
    expect(await found(occasions({ $in: ['Work', 'Evening'] }))).toEqual(['tee-2']);
    expect(await found(occasions({ $ne: 'Sport', $exists: true }))).toEqual(['tee-2']);
    expect(await found(occasions({ $nin: ['Casual', 'Work'] }))).toEqual(['knife-1', 'boot-1', 'long-1']);
    expect(await found(occasions({ $exists: false }))).toEqual(['knife-1', 'boot-1', 'long-1']);
    expect(await found({ attributes: [{ key: { $eq: 'bladeLengthCm' } }] })).toEqual(['knife-1']);
    expect(await found({ attributes: [{ key: { $in: ['bladeLengthCm', 'material'] } }] })).toEqual([
      'tee-1',
      'knife-1',
      'tee-1-red-m',
    ]);
    expect(
      await found({ attributes: [{ key: { $eq: 'noSuchAttribute' }, value: { $exists: false } }] }),
    ).toEqual([]);
  });

  it('filters on dataEnrichment, nested or dotted; no dataEnrichment matches status $exists false', async () => {
    const never = ['boot-1', 'tee-1-red-m', 'long-1'];
    expect(await found({ dataEnrichment: { status: { $exists: false } } })).toEqual(never);
    expect(await found({ 'dataEnrichment.status': { $exists: false } })).toEqual(never);
    expect(await found({ dataEnrichment: { status: { $in: ['FINISHED', 'FAILED'] } } })).toEqual([
      'tee-1',
      'tee-2',
    ]);
    expect(await found({ dataEnrichment: { status: { $eq: 'IN_PROGRESS' } } })).toEqual(['knife-1']);
    expect(await found({ dataEnrichment: { completedAt: { $gte: T0 + 15_000 } } })).toEqual(['tee-2']);
    expect(await found({ 'dataEnrichment.completedAt': { $lt: T0 + 15_000 } })).toEqual(['tee-1']);
  });

  it('filters on attributeSummary.enrichableCompletionRate, nested or dotted', async () => {
    const res = await search({ pagination: { limit: 500 } });
    const rates = new Map<string, number>(
      res.body.data.products.map((p: Found & { attributeSummary: { enrichableCompletionRate: number } }) => [
        p.supplierSku,
        p.attributeSummary.enrichableCompletionRate,
      ]),
    );
    const expected = (keep: (rate: number) => boolean) => ALL.filter((s) => keep(rates.get(s) as number));
    const tee = rates.get('tee-1') as number;
    expect(tee).toBeGreaterThan(0);
    expect(await found({ attributeSummary: { enrichableCompletionRate: { $gte: tee } } })).toEqual(
      expected((r) => r >= tee),
    );
    expect(await found({ 'attributeSummary.enrichableCompletionRate': { $lt: tee } })).toEqual(
      expected((r) => r < tee),
    );
  });

  it('sorts by createdAt, updatedAt and dataEnrichment.completedAt, ties by creation order', async () => {
    // knife-1 and boot-1 share a createdAt: creation order breaks the tie, also in DESC.
    expect(await found({}, { field: 'createdAt', order: 'DESC' })).toEqual([
      'long-1',
      'tee-1-red-m',
      'knife-1',
      'boot-1',
      'tee-2',
      'tee-1',
    ]);
    expect(await found({}, { field: 'updatedAt', order: 'DESC' })).toEqual([
      'tee-2',
      'long-1',
      'tee-1-red-m',
      'knife-1',
      'boot-1',
      'tee-1',
    ]);
    // Records without completedAt come last in both orders.
    const rest = ['knife-1', 'boot-1', 'tee-1-red-m', 'long-1'];
    expect(await found({}, { field: 'dataEnrichment.completedAt', order: 'ASC' })).toEqual([
      'tee-1',
      'tee-2',
      ...rest,
    ]);
    expect(await found({}, { field: 'dataEnrichment.completedAt', order: 'DESC' })).toEqual([
      'tee-2',
      'tee-1',
      ...rest,
    ]);
  });

  it('pages with limit and offset, reporting total and hasMore', async () => {
    const first = await search({ pagination: { limit: 4, offset: 0 } });
    expect(first.body.data.pagination).toEqual({ limit: 4, offset: 0, total: 6, hasMore: true });
    expect(first.body.data.products.map((p: Found) => p.supplierSku)).toEqual(ALL.slice(0, 4));
    const second = await search({ pagination: { limit: 4, offset: 4 } });
    expect(second.body.data.pagination).toEqual({ limit: 4, offset: 4, total: 6, hasMore: false });
    expect(second.body.data.products.map((p: Found) => p.supplierSku)).toEqual(ALL.slice(4));
    const beyond = await search({ pagination: { offset: 10 } });
    expect(beyond.body.data).toEqual({
      products: [],
      pagination: { limit: 20, offset: 10, total: 6, hasMore: false },
    });
    const max = await search({ pagination: { limit: 500 } });
    expect(max.status).toBe(200);
  });
});
