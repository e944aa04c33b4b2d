import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PLATFORM_ID_PATTERN } from '#lib/catalog-contract';
import {
  attr,
  type CatalogSandboxHarness,
  productBody,
  startCatalogSandbox,
  type TestAccount,
} from '#testing/catalog-sandbox';

describe('catalog sandbox: products', () => {
  let sandbox: CatalogSandboxHarness;
  let account: TestAccount;
  beforeAll(async () => {
    sandbox = await startCatalogSandbox();
    account = await sandbox.createAccount();
  });
  afterAll(() => sandbox.close());

  it('creates a product in the success envelope with a platform skuId', async () => {
    const res = await account.api.post(
      '/v1/products',
      productBody('create-1', [{ key: 'price', value: '19.99' }]),
    );
    expect(res.status).toBe(200);
    expect(res.body.errorCode).toBe(0);
    const product = res.body.data;
    expect(product.skuId).toMatch(PLATFORM_ID_PATTERN);
    expect(product).toMatchObject({ supplierSku: 'create-1', parentSkuId: null });
    expect(typeof product.id).toBe('string');
    expect(product.createdAt).toBe(product.updatedAt);
    expect(attr(product, 'price')?.value).toBe('19.99');
    expect(attr(product, 'name')?.value).toBe('Product create-1');
    expect(product).not.toHaveProperty('dataEnrichment');
    expect(product.attributeSummary).toEqual(
      expect.objectContaining({
        enrichableTotal: expect.any(Number),
        enrichableCompleted: expect.any(Number),
      }),
    );
  });

  it('lists every account attribute in responses, null when unset, and skuId/supplierSku as values', async () => {
    const { body } = await account.api.post('/v1/products', productBody('all-attrs'));
    const keys = body.data.attributes.map((a: { key: string }) => a.key);
    expect(keys).toEqual(
      expect.arrayContaining(['name', 'brand', 'description', 'legacyCode', 'aiTitle', 'size']),
    );
    expect(attr(body.data, 'legacyCode')?.value).toBeNull();
    expect(attr(body.data, 'skuId')?.value).toBe(body.data.skuId);
    expect(attr(body.data, 'supplierSku')?.value).toBe('all-attrs');
  });

  it('requires name and brand on create', async () => {
    for (const missing of ['name', 'brand']) {
      const body = productBody(`req-${missing}`);
      body.product.attributes = body.product.attributes.filter((a) => a.key !== missing);
      const res = await account.api.post('/v1/products', body);
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({
        errorCode: 400,
        error: { code: 'missing_required_attribute', attribute_key: missing },
      });
      expect(res.body.error.message).toContain(missing);
    }
  });

  it('refuses an unknown attribute key with attribute_key and a suggestion', async () => {
    const res = await account.api.post('/v1/products', productBody('unknown', [{ key: 'nope', value: 'x' }]));
    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({ code: 'unknown_attribute', attribute_key: 'nope' });
    expect(res.body.error.suggestion).toEqual(expect.any(String));
  });

  it('validates values per type', async () => {
    const cases: Array<[string, unknown]> = [
      ['aiTitle', 'x'.repeat(256)],
      ['aiTitle', 'two\nlines'],
      ['price', 19.99],
      ['price', 'nineteen'],
      ['weightGrams', '12g'],
      ['manufacturerUrl', 'not a url'],
      ['manufacturerUrl', 'ftp://example.com/x'],
      ['fit', 'Skinny'],
      ['occasions', ['Casual', 'Party']],
      ['occasions', 'Casual'],
      ['releaseDate', '2026-02-30'],
      ['availableFrom', '2026-01-01 10:00'],
      ['media', ['IM00000001', 'bad']],
      ['media', Array.from({ length: 101 }, (_, i) => `IM${String(i).padStart(8, '0')}`)],
      ['productCategory', 'apparel'],
      ['productCategory', 'no-such-node'],
    ];
    for (const [key, value] of cases) {
      const res = await account.api.post('/v1/products', productBody(`invalid-${key}`, [{ key, value }]));
      expect(res.status, `${key}=${JSON.stringify(value)}`).toBe(400);
      expect(res.body.error).toMatchObject({ code: 'invalid_attribute_value', attribute_key: key });
    }
  });

  it('stores values of every type and reads them back exactly as sent', async () => {
    const values: Array<{ key: string; value: unknown }> = [
      { key: 'description', value: '<p>Soft <b>cotton</b> tee.</p>\n<ul><li>Crew neck</li></ul>' },
      { key: 'price', value: '19.90 EUR' },
      { key: 'weightGrams', value: '180.50' },
      { key: 'manufacturerUrl', value: 'https://acme.example/tees/basic?ref=1' },
      { key: 'fit', value: 'Regular' },
      { key: 'occasions', value: ['Work', 'Casual'] },
      { key: 'releaseDate', value: '2026-03-01' },
      { key: 'availableFrom', value: '2026-03-01T08:00:00+01:00' },
      { key: 'careInstructions', value: 'Wash at 30°C\nDo not tumble dry' },
      { key: 'productCategory', value: 'apparel-tops-tshirts' },
      { key: 'media', value: ['IM00000002', 'IM00000001'] },
      { key: 'productModel', value: 'ACME-TEE-100' },
    ];
    const created = await account.api.post('/v1/products', productBody('roundtrip', values));
    expect(created.status).toBe(200);
    const read = await account.api.get(`/v1/products/${created.body.data.skuId}`);
    for (const { key, value } of values) expect(attr(read.body.data, key)?.value).toEqual(value);
  });

  it('PATCH by supplierSku replaces only the given attributes, arrays whole, and null clears', async () => {
    const created = await account.api.post(
      '/v1/products',
      productBody('patch-1', [
        { key: 'occasions', value: ['Work', 'Casual'] },
        { key: 'material', value: 'Cotton' },
        { key: 'media', value: ['IM00000001', 'IM00000002'] },
      ]),
    );
    const before = created.body.data;
    const patched = await account.api.patch('/v1/products', {
      product: {
        supplierSku: 'patch-1',
        attributes: [
          { key: 'occasions', value: ['Sport'] },
          { key: 'material', value: null },
          { key: 'media', value: ['IM00000002'] },
        ],
      },
    });
    expect(patched.status).toBe(200);
    const after = patched.body.data;
    expect(after.skuId).toBe(before.skuId);
    expect(attr(after, 'occasions')?.value).toEqual(['Sport']);
    expect(attr(after, 'media')?.value).toEqual(['IM00000002']);
    expect(attr(after, 'material')?.value).toBeNull();
    expect(attr(after, 'name')?.value).toBe('Product patch-1');
    expect(after.updatedAt).toBeGreaterThan(before.updatedAt);
  });

  it('PATCH by skuId edits that record; a different supplierSku renames it', async () => {
    const { body } = await account.api.post('/v1/products', productBody('rename-me'));
    const skuId = body.data.skuId;
    const res = await account.api.patch(`/v1/products/${skuId}`, {
      product: { supplierSku: 'renamed', attributes: [{ key: 'brand', value: 'Globex' }] },
    });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ skuId, supplierSku: 'renamed' });
    expect(attr(res.body.data, 'brand')?.value).toBe('Globex');
    const byOldSku = await account.api.patch('/v1/products', {
      product: { supplierSku: 'rename-me', attributes: [] },
    });
    expect(byOldSku.status).toBe(404);
  });

  it('refuses to clear a required attribute, and leaves the record untouched', async () => {
    const { body } = await account.api.post('/v1/products', productBody('keep-name'));
    const res = await account.api.patch(`/v1/products/${body.data.skuId}`, {
      product: { supplierSku: 'other-name', attributes: [{ key: 'name', value: null }] },
    });
    expect(res.status).toBe(400);
    const read = await account.api.get(`/v1/products/${body.data.skuId}`);
    expect(read.body.data.supplierSku).toBe('keep-name');
    expect(read.body.data.updatedAt).toBe(body.data.updatedAt);
  });

  it('answers 404 in the envelope for an unknown skuId', async () => {
    const res = await account.api.get('/v1/products/ZZ99999999');
    expect(res.status).toBe(404);
    expect(res.body).toMatchObject({ errorCode: 404, error: { code: 'product_not_found' } });
  });

  it('deletes permanently; the supplierSku may be reused and gets a new skuId', async () => {
    const first = await account.api.post('/v1/products', productBody('reuse-me'));
    const skuId = first.body.data.skuId;
    const deleted = await account.api.delete(`/v1/products/${skuId}`);
    expect(deleted.status).toBe(200);
    expect(deleted.body.data).toEqual({
      skuId,
      supplierSku: 'reuse-me',
      status: 'deleted',
      deletedAt: expect.any(Number),
    });
    expect((await account.api.get(`/v1/products/${skuId}`)).status).toBe(404);
    expect((await account.api.delete(`/v1/products/${skuId}`)).status).toBe(404);
    const again = await account.api.post('/v1/products', productBody('reuse-me'));
    expect(again.status).toBe(200);
    expect(again.body.data.skuId).not.toBe(skuId);
  });
});
