import { createHash } from 'node:crypto';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  apiFor,
  type CatalogSandboxHarness,
  productBody,
  startCatalogSandbox,
} from '#testing/catalog-sandbox';
import { AccountRegistry } from '../src/accounts/account.registry.js';

describe('catalog sandbox: portal API', () => {
  let sandbox: CatalogSandboxHarness;
  beforeAll(async () => {
    sandbox = await startCatalogSandbox();
  });
  afterAll(() => sandbox.close());

  it('requires the portal token', async () => {
    const none = await request(sandbox.url).get('/portal/v1/accounts');
    expect(none.status).toBe(401);
    expect(none.body.error.code).toBe('unauthorized');
    const wrong = await request(sandbox.url).get('/portal/v1/accounts').set('X-Portal-Token', 'nope');
    expect(wrong.status).toBe(401);
  });

  it('creates an account from a seed-shaped body, without echoing key secrets', async () => {
    const res = await sandbox.portal.post('/portal/v1/accounts', {
      id: 'acme-portal',
      apiKeys: [{ key: 'acme-secret-key-1', permissions: ['*'] }],
      taxonomy: [{ id: 'root', name: 'Root', children: [{ id: 'leaf', name: 'Leaf' }] }],
      attributes: [
        {
          key: 'fabric',
          displayName: 'Fabric',
          type: 'DROPDOWN',
          class: 'LIB',
          option: { disabled: false, variantable: false, values: ['Cotton', 'Wool'] },
          categories: ['root'],
          ai: { enabled: true, instructions: 'Main fabric' },
        },
      ],
    });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      errorCode: 0,
      data: {
        id: 'acme-portal',
        apiKeys: [expect.objectContaining({ id: expect.any(String), permissions: ['*'], status: 'active' })],
      },
    });
    expect(JSON.stringify(res.body)).not.toContain('acme-secret-key-1');
    const api = apiFor(sandbox.url, 'acme-secret-key-1');
    const created = await api.post('/v1/products', productBody('p1', [{ key: 'fabric', value: 'Wool' }]));
    expect(created.status).toBe(200);
    expect(created.body.data.attributes.map((a: { key: string }) => a.key)).toContain('price');
  });

  it('stores keys hashed only', async () => {
    await sandbox.portal.post('/portal/v1/accounts', {
      id: 'hashed',
      apiKeys: [{ key: 'plain-text-key-42' }],
    });
    const account = sandbox.app.get(AccountRegistry).require('hashed');
    const [key] = [...account.apiKeys.values()];
    expect(key?.hash).toBe(createHash('sha256').update('plain-text-key-42').digest('hex'));
    expect(JSON.stringify(key)).not.toContain('plain-text-key-42');
  });

  it('generates a key shown once when none is given', async () => {
    const res = await sandbox.portal.post('/portal/v1/accounts', {});
    const [key] = res.body.data.apiKeys;
    expect(key.key).toMatch(/^pec_/);
    const listed = await sandbox.portal.get(`/portal/v1/accounts/${res.body.data.id}/api-keys`);
    expect(JSON.stringify(listed.body)).not.toContain(key.key);
    expect((await apiFor(sandbox.url, key.key).get('/v1/taxonomies')).status).toBe(200);
  });

  it('refuses invalid definitions with a clear validation_error', async () => {
    const cases: unknown[] = [
      { attributes: [{ key: 'x', type: 'COLOR' }] },
      { attributes: [{ key: 'x', type: 'DROPDOWN', class: 'CUSTOM' }] },
      { attributes: [{ key: 'x', type: 'TEXT', categories: ['nowhere'] }] },
      { attributes: [{ key: 'name', type: 'TEXT' }] },
      { taxonomy: [{ id: 'a', name: 'A', children: [{ id: 'a', name: 'again' }] }] },
      { apiKeys: [{ key: 'short' }] },
      { behaviour: { createStatus: 204 } },
    ];
    for (const body of cases) {
      const res = await sandbox.portal.post('/portal/v1/accounts', body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.error.code).toBe('validation_error');
    }
    expect((await sandbox.portal.post('/portal/v1/accounts', { id: 'hashed' })).status).toBe(409);
  });

  it('allows at most 5 active keys', async () => {
    const { body } = await sandbox.portal.post('/portal/v1/accounts', {});
    const id = body.data.id;
    const ids: string[] = [body.data.apiKeys[0].id];
    for (let i = 0; i < 4; i++)
      ids.push((await sandbox.portal.post(`/portal/v1/accounts/${id}/api-keys`, {})).body.data.id);
    const sixth = await sandbox.portal.post(`/portal/v1/accounts/${id}/api-keys`, {});
    expect(sixth.status).toBe(409);
    expect(sixth.body.error).toMatchObject({ code: 'api_key_limit_exceeded', current_count: 5 });
    await sandbox.portal.post(`/portal/v1/accounts/${id}/api-keys/${ids[0]}/deactivate`);
    const inactiveExtra = await sandbox.portal.post(`/portal/v1/accounts/${id}/api-keys`, {});
    expect(inactiveExtra.status).toBe(200);
    const reactivate = await sandbox.portal.post(`/portal/v1/accounts/${id}/api-keys/${ids[0]}/activate`);
    expect(reactivate.status).toBe(409);
  });

  it('deletes an account and everything in it', async () => {
    const account = await sandbox.createAccount();
    const product = await account.api.post('/v1/products', productBody('doomed'));
    expect(product.status).toBe(200);
    expect((await sandbox.portal.delete(`/portal/v1/accounts/${account.id}`)).status).toBe(200);
    expect((await account.api.get(`/v1/products/${product.body.data.skuId}`)).status).toBe(401);
    expect((await sandbox.portal.get(`/portal/v1/accounts/${account.id}`)).status).toBe(404);
  });

  it('logs /v1 calls per account, filterable and clearable', async () => {
    const account = await sandbox.createAccount();
    const other = await sandbox.createAccount();
    const body = productBody('logged');
    await account.api.post('/v1/products', body);
    await account.api.get('/v1/products/ZZ00000000');
    await account.api.get('/v1/taxonomies?depth=2');
    await other.api.get('/v1/taxonomies');
    const all = await sandbox.portal.get(`/portal/v1/accounts/${account.id}/requests`);
    expect(all.body.data.total).toBe(3);
    const [post, missing, taxonomy] = all.body.data.requests;
    expect(post).toMatchObject({
      method: 'POST',
      path: '/v1/products',
      status: 200,
      apiKeyId: expect.any(String),
    });
    expect(post.bodyDigest).toBe(createHash('sha256').update(JSON.stringify(body)).digest('hex'));
    expect(post.time).toEqual(expect.any(Number));
    expect(missing).toMatchObject({ method: 'GET', status: 404, bodyDigest: null });
    expect(taxonomy.query).toEqual({ depth: '2' });
    const filtered = await sandbox.portal.get(
      `/portal/v1/accounts/${account.id}/requests?method=GET&path=/v1/products*`,
    );
    expect(filtered.body.data.total).toBe(1);
    const byStatus = await sandbox.portal.get(`/portal/v1/accounts/${account.id}/requests?status=404`);
    expect(byStatus.body.data.requests.map((r: { path: string }) => r.path)).toEqual([
      '/v1/products/ZZ00000000',
    ]);
    const cleared = await sandbox.portal.delete(`/portal/v1/accounts/${account.id}/requests`);
    expect(cleared.body.data.cleared).toBe(3);
    expect((await sandbox.portal.get(`/portal/v1/accounts/${account.id}/requests`)).body.data.total).toBe(0);
  });
});
