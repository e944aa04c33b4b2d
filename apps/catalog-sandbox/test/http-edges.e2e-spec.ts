import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type CatalogSandboxHarness,
  productBody,
  startCatalogSandbox,
  type TestAccount,
} from '#testing/catalog-sandbox';
import { AccountRegistry } from '../src/accounts/account.registry.js';

describe('catalog sandbox: authentication and the error envelope', () => {
  let sandbox: CatalogSandboxHarness;
  let account: TestAccount;
  beforeAll(async () => {
    sandbox = await startCatalogSandbox({ env: { CATALOG_SANDBOX_BODY_LIMIT_BYTES: '4096' } });
    account = await sandbox.createAccount();
  });
  afterAll(() => sandbox.close());

  it('refuses a missing or unknown X-API-Key with 401 in the envelope, on every /v1 route', async () => {
    for (const [method, path] of [
      ['get', '/v1/products/SK00000001'],
      ['post', '/v1/products'],
      ['get', '/v1/taxonomies'],
      ['post', '/v1/variants'],
      ['post', '/v1/products/search'],
      ['post', '/v1/attributes/search'],
    ] as const) {
      const missing = await request(sandbox.url)[method](path);
      expect(missing.status, `${method} ${path}`).toBe(401);
      expect(missing.body).toMatchObject({
        errorCode: 401,
        error: { code: 'unauthorized', message: expect.any(String) },
      });
      const unknown = await request(sandbox.url)[method](path).set('X-API-Key', 'not-a-key-at-all');
      expect(unknown.status).toBe(401);
    }
  });

  it('refuses a deactivated key, and accepts it again once reactivated', async () => {
    const created = await sandbox.portal.post(`/portal/v1/accounts/${account.id}/api-keys`, {});
    const { id, key } = created.body.data;
    const api = () => request(sandbox.url).get('/v1/taxonomies').set('X-API-Key', key);
    expect((await api()).status).toBe(200);
    await sandbox.portal.post(`/portal/v1/accounts/${account.id}/api-keys/${id}/deactivate`);
    const refused = await api();
    expect(refused.status).toBe(401);
    expect(refused.body.error.message).toMatch(/deactivated/);
    await sandbox.portal.post(`/portal/v1/accounts/${account.id}/api-keys/${id}/activate`);
    expect((await api()).status).toBe(200);
    await sandbox.portal.delete(`/portal/v1/accounts/${account.id}/api-keys/${id}`);
    expect((await api()).status).toBe(401);
  });

  it('refuses a key without the needed permission with 403', async () => {
    const created = await sandbox.portal.post(`/portal/v1/accounts/${account.id}/api-keys`, {
      permissions: ['products:read'],
    });
    const key = created.body.data.key;
    const write = await request(sandbox.url)
      .post('/v1/products')
      .set('X-API-Key', key)
      .send(productBody('ro'));
    expect(write.status).toBe(403);
    expect(write.body.error).toMatchObject({
      code: 'forbidden',
      details: { required_permission: 'products:write' },
    });
    await sandbox.portal.delete(`/portal/v1/accounts/${account.id}/api-keys/${created.body.data.id}`);
  });

  it('answers malformed JSON with 400 malformed_json', async () => {
    const res = await request(sandbox.url)
      .post('/v1/products')
      .set('X-API-Key', account.apiKey)
      .set('Content-Type', 'application/json')
      .send('{"product": {');
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ errorCode: 400, error: { code: 'malformed_json' } });
  });

  it('answers a non-JSON content type with 415', async () => {
    const res = await request(sandbox.url)
      .post('/v1/products')
      .set('X-API-Key', account.apiKey)
      .set('Content-Type', 'text/plain')
      .send('name=x');
    expect(res.status).toBe(415);
    expect(res.body.error).toMatchObject({ code: 'unsupported_media_type', suggestion: expect.any(String) });
  });

  it('answers a body over the limit with 413 and stores nothing', async () => {
    const big = productBody('too-big', [{ key: 'description', value: 'x'.repeat(5000) }]);
    const res = await account.api.post('/v1/products', big);
    expect(res.status).toBe(413);
    expect(res.body.error).toMatchObject({ code: 'payload_too_large', details: { max_bytes: 4096 } });
    const store = sandbox.app.get(AccountRegistry).require(account.id).products;
    expect(store.bySupplierSku('too-big')).toEqual([]);
  });

  it('answers a wrong body shape with validation_error naming the field', async () => {
    const res = await account.api.post('/v1/products', { supplierSku: 'x', attributes: [] });
    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({ code: 'validation_error', details: { field: 'product' } });
  });

  it('answers an unknown route with 404 in the envelope', async () => {
    const res = await account.api.get('/v1/nothing-here');
    expect(res.status).toBe(404);
    expect(res.body).toMatchObject({ errorCode: 404, error: { code: 'not_found' } });
  });

  it('echoes a correlation id on every answer', async () => {
    const res = await account.api.get('/v1/taxonomies').set('X-Request-Id', 'corr-123');
    expect(res.headers['x-request-id']).toBe('corr-123');
  });

  it('returns the taxonomy tree with nested children and createdAt', async () => {
    const res = await account.api.get('/v1/taxonomies');
    expect(res.status).toBe(200);
    const apparel = res.body.data.tree.find((n: { id: string }) => n.id === 'apparel');
    expect(apparel).toMatchObject({
      name: 'Apparel',
      description: expect.any(String),
      createdAt: expect.any(Number),
    });
    const tees = apparel.children[0].children[0];
    expect(tees).toMatchObject({ id: 'apparel-tops-tshirts', children: [] });
    expect(tees).not.toHaveProperty('reference');
  });
});
