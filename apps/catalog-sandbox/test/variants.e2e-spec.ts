import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CatalogLimits } from '#lib/catalog-contract';
import {
  attr,
  type CatalogSandboxHarness,
  productBody,
  startCatalogSandbox,
  type TestAccount,
} from '#testing/catalog-sandbox';
import { AccountRegistry } from '../src/accounts/account.registry.js';

describe('catalog sandbox: variants', () => {
  let sandbox: CatalogSandboxHarness;
  let account: TestAccount;
  beforeAll(async () => {
    sandbox = await startCatalogSandbox();
    account = await sandbox.createAccount();
  });
  afterAll(() => sandbox.close());

  async function parent(supplierSku: string, extra: Array<{ key: string; value: unknown }> = []) {
    const res = await account.api.post(
      '/v1/products',
      productBody(supplierSku, [
        { key: 'productCategory', value: 'apparel-tops-tshirts' },
        { key: 'material', value: 'Cotton' },
        { key: 'media', value: ['IM00000010', 'IM00000011'] },
        { key: 'price', value: '25.00' },
        ...extra,
      ]),
    );
    expect(res.status).toBe(200);
    return res.body.data;
  }

  function variant(
    parentSupplierSku: string,
    supplierSku: string,
    attributes: Array<{ key: string; value: unknown }>,
  ) {
    return account.api.post('/v1/variants', { parentSupplierSku, supplierSku, attributes });
  }

  it('creates a variant under the parent found by parentSupplierSku', async () => {
    const p = await parent('tee');
    const res = await variant('tee', 'tee-s-black', [
      { key: 'size', value: 'S' },
      { key: 'color', value: 'Black' },
    ]);
    expect(res.status).toBe(200);
    const v = res.body.data;
    expect(v).toMatchObject({ supplierSku: 'tee-s-black', parentSupplierSku: 'tee', parentSkuId: p.skuId });
    expect(v.attributes.map((a: { key: string }) => a.key).sort()).toEqual(['color', 'size']);
    const inherited = v.inheritedAttributes;
    expect(inherited.every((a: { inherited?: boolean }) => a.inherited === true)).toBe(true);
    expect(attr({ attributes: inherited }, 'name')?.value).toBe('Product tee');
    expect(attr({ attributes: inherited }, 'material')?.value).toBe('Cotton');
    expect(attr({ attributes: inherited }, 'media')?.value).toEqual(['IM00000010', 'IM00000011']);
  });

  it('reads a variant with the parent attributes flagged inherited, and variant values as its own', async () => {
    await parent('tee-read');
    const created = await variant('tee-read', 'tee-read-m', [{ key: 'size', value: 'M' }]);
    const res = await account.api.get(`/v1/variants/${created.body.data.skuId}`);
    expect(res.status).toBe(200);
    const v = res.body.data;
    expect(v.parentSkuId).toEqual(expect.any(String));
    expect(attr(v, 'name')).toMatchObject({ value: 'Product tee-read', inherited: true });
    expect(attr(v, 'brand')).toMatchObject({ value: 'Acme', inherited: true });
    expect(attr(v, 'productCategory')).toMatchObject({ value: 'apparel-tops-tshirts', inherited: true });
    expect(attr(v, 'media')).toMatchObject({ value: ['IM00000010', 'IM00000011'], inherited: true });
    expect(attr(v, 'size')).toEqual({ key: 'size', value: 'M' });
    // price is variant-specific but unset on the variant: the parent's value cascades.
    expect(attr(v, 'price')).toMatchObject({ value: '25.00', inherited: true });
    // the products endpoint finds variants too
    const viaProducts = await account.api.get(`/v1/products/${created.body.data.skuId}`);
    expect(viaProducts.status).toBe(200);
    expect(viaProducts.body.data.parentSkuId).toBe(v.parentSkuId);
  });

  it('refuses a non variant-specific attribute on create with invalid_variant_attribute', async () => {
    await parent('tee-invalid');
    const res = await variant('tee-invalid', 'tee-invalid-s', [{ key: 'material', value: 'Wool' }]);
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({
      errorCode: 400,
      error: { code: 'invalid_variant_attribute', attribute_key: 'material' },
    });
  });

  it('answers parent_not_found with a suggestion for an unknown parentSupplierSku', async () => {
    const res = await variant('no-such-parent', 'orphan', [{ key: 'size', value: 'S' }]);
    expect(res.status).toBe(404);
    expect(res.body.error).toMatchObject({ code: 'parent_not_found', suggestion: expect.any(String) });
  });

  it("enforces a variant's supplierSku as unique", async () => {
    await parent('tee-unique');
    expect((await variant('tee-unique', 'tee-unique-s', [{ key: 'size', value: 'S' }])).status).toBe(200);
    const again = await variant('tee-unique', 'tee-unique-s', [{ key: 'size', value: 'M' }]);
    expect(again.status).toBe(409);
    expect(again.body.error.code).toBe('duplicate_supplier_sku');
    const clash = await variant('tee-unique', 'tee-unique', [{ key: 'size', value: 'L' }]);
    expect(clash.status).toBe(409);
  });

  it('caps a parent at 200 variants with variant_limit_exceeded and current_count', async () => {
    await parent('tee-many');
    for (let i = 0; i < CatalogLimits.VARIANTS_PER_PARENT; i++) {
      const res = await variant('tee-many', `tee-many-${i}`, [{ key: 'gtin', value: `0000${i}` }]);
      expect(res.status).toBe(200);
    }
    const over = await variant('tee-many', 'tee-many-over', []);
    expect(over.status).toBe(400);
    expect(over.body.error).toMatchObject({ code: 'variant_limit_exceeded', current_count: 200 });
  });

  it('gives a variant its own gallery when media is sent (inheritance broken)', async () => {
    await parent('tee-media');
    const created = await variant('tee-media', 'tee-media-red', [{ key: 'media', value: ['IM00000099'] }]);
    const v = (await account.api.get(`/v1/variants/${created.body.data.skuId}`)).body.data;
    expect(attr(v, 'media')).toEqual({ key: 'media', value: ['IM00000099'] });
    await account.api.patch('/v1/products', {
      product: { supplierSku: 'tee-media', attributes: [{ key: 'media', value: ['IM00000012'] }] },
    });
    const after = (await account.api.get(`/v1/variants/${created.body.data.skuId}`)).body.data;
    expect(attr(after, 'media')?.value).toEqual(['IM00000099']);
  });

  it('ignores edits of inherited attributes on a variant; parent edits show on its variants', async () => {
    await parent('tee-cascade');
    const created = await variant('tee-cascade', 'tee-cascade-s', [{ key: 'size', value: 'S' }]);
    const skuId = created.body.data.skuId;
    const edit = await account.api.patch(`/v1/variants/${skuId}`, {
      product: {
        supplierSku: 'tee-cascade-s',
        attributes: [
          { key: 'name', value: 'Hijacked' },
          { key: 'size', value: 'XL' },
        ],
      },
    });
    expect(edit.status).toBe(200);
    expect(attr(edit.body.data, 'name')).toMatchObject({ value: 'Product tee-cascade', inherited: true });
    expect(attr(edit.body.data, 'size')?.value).toBe('XL');
    expect(edit.body.data.parentSkuId).toEqual(expect.any(String));
    await account.api.patch('/v1/products', {
      product: {
        supplierSku: 'tee-cascade',
        attributes: [
          { key: 'name', value: 'Renamed tee' },
          { key: 'material', value: 'Linen' },
        ],
      },
    });
    const v = (await account.api.get(`/v1/variants/${skuId}`)).body.data;
    expect(attr(v, 'name')).toMatchObject({ value: 'Renamed tee', inherited: true });
    expect(attr(v, 'material')).toMatchObject({ value: 'Linen', inherited: true });
  });

  it('lets a simple product gain variants: it is then both parent and its own record', async () => {
    const simple = await parent('simple-then-parent', [{ key: 'size', value: 'M' }]);
    expect(simple.parentSkuId).toBeNull();
    const v = await variant('simple-then-parent', 'simple-then-parent-l', [{ key: 'size', value: 'L' }]);
    expect(v.status).toBe(200);
    const p = (await account.api.get(`/v1/products/${simple.skuId}`)).body.data;
    expect(attr(p, 'size')?.value).toBe('M');
    expect(attr(p, 'price')?.value).toBe('25.00');
  });

  it('counts only variant-specific enrichable attributes in a variant summary', async () => {
    const p = await parent('tee-summary');
    const created = await variant('tee-summary', 'tee-summary-s', [{ key: 'color', value: 'Red' }]);
    const v = (await account.api.get(`/v1/variants/${created.body.data.skuId}`)).body.data;
    // Seed: enrichable + variant-specific for a t-shirt are color, weightGrams, variantTitle.
    expect(v.attributeSummary).toEqual({
      enrichableTotal: 3,
      enrichableCompleted: 1,
      enrichableCompletionRate: 33.33,
    });
    expect(p.attributeSummary.enrichableTotal).toBeGreaterThan(v.attributeSummary.enrichableTotal);
  });

  it('deletes variants independently; a parent with variants is refused until they are gone', async () => {
    const p = await parent('tee-delete');
    const v = (await variant('tee-delete', 'tee-delete-s', [{ key: 'size', value: 'S' }])).body.data;
    const refused = await account.api.delete(`/v1/products/${p.skuId}`);
    expect(refused.status).toBe(409);
    expect(refused.body.error).toMatchObject({ code: 'conflict', current_count: 1 });
    const gone = await account.api.delete(`/v1/variants/${v.skuId}`);
    expect(gone.body.data).toMatchObject({ skuId: v.skuId, supplierSku: 'tee-delete-s', status: 'deleted' });
    expect((await account.api.get(`/v1/variants/${v.skuId}`)).status).toBe(404);
    expect((await account.api.get(`/v1/products/${p.skuId}`)).status).toBe(200);
    expect((await account.api.delete(`/v1/products/${p.skuId}`)).status).toBe(200);
  });

  it('cascades a parent delete to its variants when the account says so', async () => {
    await sandbox.portal.patch(`/portal/v1/accounts/${account.id}/behaviour`, { parentDelete: 'cascade' });
    try {
      const p = await parent('tee-cascade-delete');
      const v = (await variant('tee-cascade-delete', 'tee-cascade-delete-s', [])).body.data;
      expect((await account.api.delete(`/v1/products/${p.skuId}`)).status).toBe(200);
      expect((await account.api.get(`/v1/variants/${v.skuId}`)).status).toBe(404);
    } finally {
      await sandbox.portal.patch(`/portal/v1/accounts/${account.id}/behaviour`, { parentDelete: 'refuse' });
    }
  });

  it('answers variant_not_found for a product skuId on the variants endpoints', async () => {
    const p = await parent('not-a-variant');
    expect((await account.api.get(`/v1/variants/${p.skuId}`)).body.error.code).toBe('variant_not_found');
    expect((await account.api.delete(`/v1/variants/${p.skuId}`)).status).toBe(404);
    const registry = sandbox.app.get(AccountRegistry);
    expect(registry.require(account.id).products.get(p.skuId)).toBeDefined();
  });
});
