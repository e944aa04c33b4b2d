import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '#lib/clock';
import {
  attr,
  type CatalogSandboxHarness,
  productBody,
  startCatalogSandbox,
  type TestAccount,
} from '#testing/catalog-sandbox';

const T0 = Date.UTC(2025, 0, 1);
type Entry = { key: string; value: unknown; blame?: string; sources?: unknown[]; inherited?: boolean };

describe('catalog sandbox: bulk fixtures', () => {
  const clock = new ManualClock(Date.UTC(2026, 5, 1));
  let sandbox: CatalogSandboxHarness;
  beforeAll(async () => {
    sandbox = await startCatalogSandbox({ clock });
  });
  afterAll(() => sandbox.close());

  const bulk = (account: TestAccount, products: unknown[]) =>
    sandbox.portal.post(`/portal/v1/accounts/${account.id}/products/bulk`, { products });
  const named = (supplierSku: string, extra: object[] = []) => ({
    supplierSku,
    attributes: [{ key: 'name', value: `Item ${supplierSku}` }, { key: 'brand', value: 'Acme' }, ...extra],
  });

  it('loads 100,000 products in one call', async () => {
    const account = await sandbox.createAccount();
    const products = Array.from({ length: 100_000 }, (_, i) => ({
      ...named(`bulk-${i}`, i % 2 === 0 ? [{ key: 'productCategory', value: 'apparel-tops-tshirts' }] : []),
      createdAt: T0 + i * 1000,
    }));
    const res = await bulk(account, products);
    expect(res.status, JSON.stringify(res.body).slice(0, 500)).toBe(200);
    expect(res.body.data.created).toBe(100_000);
    expect(res.body.data.skuIds).toHaveLength(100_000);
    expect(new Set(res.body.data.skuIds).size).toBe(100_000);
    const summary = await sandbox.portal.get(`/portal/v1/accounts/${account.id}`);
    expect(summary.body.data.counts.records).toBe(100_000);
    for (const i of [0, 4_321, 99_999]) {
      const read = (await account.api.get(`/v1/products/${res.body.data.skuIds[i]}`)).body.data;
      expect(read).toMatchObject({
        supplierSku: `bulk-${i}`,
        createdAt: T0 + i * 1000,
        updatedAt: T0 + i * 1000,
      });
      expect(attr(read, 'name')?.value).toBe(`Item bulk-${i}`);
      expect(read).not.toHaveProperty('dataEnrichment');
    }
    const newest = await account.api.post('/v1/products/search', {
      filter: { createdAt: { $gte: T0 + 99_998_000 } },
      sort: { field: 'createdAt', order: 'DESC' },
    });
    expect(newest.body.data.products.map((p: { supplierSku: string }) => p.supplierSku)).toEqual([
      'bulk-99999',
      'bulk-99998',
    ]);
    const bySku = await account.api.post('/v1/products/search', {
      filter: { supplierSku: { $eq: 'bulk-77777' } },
    });
    expect(bySku.body.data.pagination.total).toBe(1);
  }, 120_000);

  it('loads parents, variants, blames, sources and enrichment states the API cannot set', async () => {
    const account = await sandbox.createAccount();
    const res = await bulk(account, [
      // a variant may come before its parent
      {
        supplierSku: 'tee-s',
        parentSupplierSku: 'tee',
        attributes: [
          { key: 'size', value: 'S' },
          { key: 'color', value: 'Red', blame: 'ENRICHMENT', sources: [{ id: 'src_1', type: 'MEDIA' }] },
          { key: 'media', value: ['IM00000002'] },
        ],
        dataEnrichment: { status: 'IN_PROGRESS', taskId: 'TK12345678' },
      },
      {
        ...named('tee', [
          { key: 'productCategory', value: 'apparel-tops-tshirts' },
          { key: 'aiTitle', value: 'Approved title', blame: 'ENRICHMENT_APPROVED' },
          { key: 'seoTitle', value: 'Rejected title', blame: 'ENRICHMENT_REJECTED' },
          { key: 'media', value: ['IM00000001'] },
        ]),
        createdAt: T0,
        updatedAt: T0 + 5_000,
        dataEnrichment: { status: 'FINISHED', completedAt: T0 + 4_000 },
      },
    ]);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const [variantSku, parentSku] = res.body.data.skuIds;
    const parent = (await account.api.get(`/v1/products/${parentSku}`)).body.data;
    expect(parent).toMatchObject({ createdAt: T0, updatedAt: T0 + 5_000, parentSkuId: null });
    expect(parent.dataEnrichment).toEqual({
      taskId: expect.stringMatching(/^TK\d{8}$/),
      status: 'FINISHED',
      completedAt: T0 + 4_000,
    });
    expect(attr(parent, 'aiTitle')).toEqual({
      key: 'aiTitle',
      value: 'Approved title',
      blame: 'ENRICHMENT_APPROVED',
    });
    expect(attr(parent, 'seoTitle')).toMatchObject({ blame: 'ENRICHMENT_REJECTED' });
    const variant = (await account.api.get(`/v1/variants/${variantSku}`)).body.data;
    expect(variant).toMatchObject({
      parentSkuId: parentSku,
      dataEnrichment: { taskId: 'TK12345678', status: 'IN_PROGRESS' },
    });
    expect(attr(variant, 'color')).toEqual({
      key: 'color',
      value: 'Red',
      blame: 'ENRICHMENT',
      sources: [{ id: 'src_1', type: 'MEDIA' }],
    });
    expect(attr(variant, 'media')).toEqual({ key: 'media', value: ['IM00000002'] });
    expect(attr(variant, 'aiTitle') as Entry).toMatchObject({ value: 'Approved title', inherited: true });
    const inProgress = await account.api.post('/v1/products/search', {
      filter: { dataEnrichment: { status: { $in: ['IN_PROGRESS'] } } },
    });
    expect(inProgress.body.data.products.map((p: { skuId: string }) => p.skuId)).toEqual([variantSku]);
    // a parent with variants refuses deletion, as with variants created through the API
    expect((await account.api.delete(`/v1/products/${parentSku}`)).status).toBe(409);
  });

  it('keeps records in createdAt order whatever the order of the request', async () => {
    const account = await sandbox.createAccount();
    await account.api.post('/v1/products', productBody('api-made'));
    const offsets = [5, 1, 4, 2, 3];
    const res = await bulk(
      account,
      offsets.map((n) => ({ ...named(`t${n}`), createdAt: T0 + n })),
    );
    expect(res.status).toBe(200);
    const found = await account.api.post('/v1/products/search', {
      sort: { field: 'createdAt', order: 'ASC' },
    });
    expect(found.body.data.products.map((p: { supplierSku: string }) => p.supplierSku)).toEqual([
      't1',
      't2',
      't3',
      't4',
      't5',
      'api-made',
    ]);
  });

  it('refuses the whole batch on one bad record, naming its index', async () => {
    const account = await sandbox.createAccount();
    const refused = async (record: unknown, status: number, code: string) => {
      const res = await bulk(account, [named('fine'), record]);
      expect(res.status, JSON.stringify(res.body)).toBe(status);
      expect(res.body.error.code).toBe(code);
      expect(res.body.error.details).toMatchObject({ index: 1 });
    };
    await refused(named('x', [{ key: 'nope', value: 'a' }]), 400, 'unknown_attribute');
    await refused(named('x', [{ key: 'occasions', value: ['Party'] }]), 400, 'invalid_attribute_value');
    await refused(
      { supplierSku: 'x', attributes: [{ key: 'name', value: 'No brand' }] },
      400,
      'missing_required_attribute',
    );
    await refused(
      { supplierSku: 'v', parentSupplierSku: 'fine', attributes: [{ key: 'material', value: 'Silk' }] },
      400,
      'invalid_variant_attribute',
    );
    await refused({ supplierSku: 'v', parentSupplierSku: 'ghost' }, 404, 'parent_not_found');
    await refused(
      named('x', [{ key: 'aiTitle', value: 'T', sources: [{ id: 's', type: 'MEDIA' }] }]),
      400,
      'validation_error',
    );
    await refused(named('x', [{ key: 'aiTitle', value: 'T', blame: 'AI' }]), 400, 'validation_error');
    await refused({ ...named('x'), createdAt: T0, updatedAt: T0 - 1 }, 400, 'validation_error');
    await refused({ ...named('x'), dataEnrichment: { status: 'DONE' } }, 400, 'validation_error');
    await refused({ supplierSku: 'fine', parentSupplierSku: 'fine' }, 409, 'duplicate_supplier_sku');
    expect((await sandbox.portal.get(`/portal/v1/accounts/${account.id}`)).body.data.counts.records).toBe(0);
    expect(
      (await sandbox.portal.post(`/portal/v1/accounts/${account.id}/products/bulk`, { products: [] })).status,
    ).toBe(400);
  });

  it('enforces the limit of 200 variants per parent', async () => {
    const account = await sandbox.createAccount();
    const variants = (n: number) =>
      Array.from({ length: n }, (_, i) => ({ supplierSku: `p-${i}`, parentSupplierSku: 'p' }));
    expect((await bulk(account, [named('p'), ...variants(200)])).status).toBe(200);
    const more = await bulk(account, [{ supplierSku: 'p-200', parentSupplierSku: 'p' }]);
    expect(more.status).toBe(400);
    expect(more.body.error.code).toBe('variant_limit_exceeded');
  });

  it('empties an account with DELETE /portal/v1/accounts/{id}/products', async () => {
    const account = await sandbox.createAccount();
    await bulk(account, [named('a'), named('b')]);
    const res = await sandbox.portal.delete(`/portal/v1/accounts/${account.id}/products`);
    expect(res.body.data).toEqual({ deleted: 2 });
    expect((await account.api.post('/v1/products/search', {})).body.data.pagination.total).toBe(0);
  });
});
