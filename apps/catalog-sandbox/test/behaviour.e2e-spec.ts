import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type CatalogSandboxHarness, productBody, startCatalogSandbox } from '#testing/catalog-sandbox';

describe('catalog sandbox: switches for the spec gaps', () => {
  let sandbox: CatalogSandboxHarness;
  beforeAll(async () => {
    sandbox = await startCatalogSandbox();
  });
  afterAll(() => sandbox.close());

  it('creates a second record for an existing supplierSku by default (no deduplication)', async () => {
    const account = await sandbox.createAccount();
    const a = await account.api.post('/v1/products', productBody('same'));
    const b = await account.api.post('/v1/products', productBody('same'));
    expect(a.status).toBe(200);
    expect(b.status).toBe(200);
    expect(b.body.data.skuId).not.toBe(a.body.data.skuId);
  });

  it('refuses a PATCH by a supplierSku several records share, listing their skuIds', async () => {
    const account = await sandbox.createAccount();
    const a = await account.api.post('/v1/products', productBody('shared'));
    const b = await account.api.post('/v1/products', productBody('shared'));
    const res = await account.api.patch('/v1/products', {
      product: { supplierSku: 'shared', attributes: [] },
    });
    expect(res.status).toBe(409);
    expect(res.body.error).toMatchObject({
      code: 'ambiguous_supplier_sku',
      details: { supplierSku: 'shared', skuIds: [a.body.data.skuId, b.body.data.skuId] },
    });
    await sandbox.portal.patch(`/portal/v1/accounts/${account.id}/behaviour`, {
      ambiguousSupplierSku: 'newest',
    });
    const newest = await account.api.patch('/v1/products', {
      product: { supplierSku: 'shared', attributes: [{ key: 'brand', value: 'Newest' }] },
    });
    expect(newest.body.data.skuId).toBe(b.body.data.skuId);
  });

  it('refuses a duplicate supplierSku when switched to refuse', async () => {
    const account = await sandbox.createAccount({ behaviour: { duplicateSupplierSku: 'refuse' } });
    expect((await account.api.post('/v1/products', productBody('once'))).status).toBe(200);
    const again = await account.api.post('/v1/products', productBody('once'));
    expect(again.status).toBe(409);
    expect(again.body.error.code).toBe('duplicate_supplier_sku');
  });

  it('answers creates with 201 when switched, 200 by default', async () => {
    const account = await sandbox.createAccount({ behaviour: { createStatus: 201 } });
    expect((await account.api.post('/v1/products', productBody('c201'))).status).toBe(201);
    const plain = await sandbox.createAccount();
    expect((await plain.api.post('/v1/products', productBody('c200'))).status).toBe(200);
  });

  it('lists only set attributes when switched to "set"', async () => {
    const account = await sandbox.createAccount({ behaviour: { responseAttributes: 'set' } });
    const res = await account.api.post('/v1/products', productBody('sparse'));
    const keys = res.body.data.attributes.map((a: { key: string }) => a.key).sort();
    expect(keys).toEqual(['brand', 'name', 'skuId', 'supplierSku']);
  });

  it('takes sandbox-wide defaults from the environment', async () => {
    const strict = await startCatalogSandbox({ env: { CATALOG_SANDBOX_DUPLICATE_SUPPLIER_SKU: 'refuse' } });
    try {
      const account = await strict.createAccount();
      await account.api.post('/v1/products', productBody('env-once'));
      expect((await account.api.post('/v1/products', productBody('env-once'))).status).toBe(409);
    } finally {
      await strict.close();
    }
  });
});
