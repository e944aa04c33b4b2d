import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type CatalogSandboxHarness,
  productBody,
  startCatalogSandbox,
  type TestAccount,
} from '#testing/catalog-sandbox';

describe('catalog sandbox: routes, methods and the credential before the body', () => {
  let sandbox: CatalogSandboxHarness;
  let account: TestAccount;
  beforeAll(async () => {
    sandbox = await startCatalogSandbox({
      env: { CATALOG_SANDBOX_PORTAL_BODY_LIMIT_BYTES: String(16 * 1024 * 1024) },
    });
    account = await sandbox.createAccount();
  });
  afterAll(() => sandbox.close());

  it('answers a known path called with another method with 405, Allow and the envelope', async () => {
    for (const [method, path, allow] of [
      ['delete', '/v1/taxonomies', 'GET, HEAD'],
      ['put', '/v1/products', 'PATCH, POST'],
      ['post', '/v1/products/SK00000001', 'DELETE, GET, HEAD, PATCH'],
      ['get', '/v1/attributes/search', 'POST'],
      ['put', '/portal/v1/accounts', 'GET, HEAD, POST'],
    ] as const) {
      const res = await account.api[method](path);
      expect(res.status, `${method} ${path}`).toBe(405);
      expect(res.headers.allow, `${method} ${path}`).toBe(allow);
      expect(res.body).toMatchObject({
        errorCode: 405,
        error: { code: 'method_not_allowed', details: { allowed: allow.split(', ') } },
      });
      expect(res.headers['x-request-id']).toEqual(expect.any(String));
    }
  });

  it('does not read GET /v1/products/search as a product id: 405, search is POST', async () => {
    await account.controls.clearRequests();
    const res = await account.api.get('/v1/products/search');
    expect(res.status).toBe(405);
    expect(res.headers.allow).toBe('POST');
    expect(res.body.error.code).toBe('method_not_allowed');
    // Refused before the API-key guard: no product lookup reached the account.
    expect(await account.controls.requests()).toEqual([]);
    const search = await account.api.post('/v1/products/search', {});
    expect(search.status).toBe(200);
  });

  it('answers an unknown path with 404 not_found, with or without credentials', async () => {
    for (const res of [
      await account.api.get('/v1/nothing-here'),
      await request(sandbox.url).post('/portal/v1/nothing').send({}),
      await request(sandbox.url).get('/elsewhere'),
    ]) {
      expect(res.status).toBe(404);
      expect(res.body).toMatchObject({ errorCode: 404, error: { code: 'not_found' } });
    }
  });

  it('tells a portal caller without a token to send X-Portal-Token, not X-API-Key', async () => {
    const res = await request(sandbox.url).get('/portal/v1/accounts');
    expect(res.status).toBe(401);
    expect(res.body.error).toMatchObject({
      code: 'unauthorized',
      message: expect.stringMatching(/X-Portal-Token/),
    });
    expect(res.body.error.suggestion).toMatch(/X-Portal-Token/);
    expect(JSON.stringify(res.body)).not.toMatch(/X-API-Key/);
    const wrong = await request(sandbox.url).get('/portal/v1/accounts').set('X-Portal-Token', 'nope');
    expect(wrong.status).toBe(401);
    expect(wrong.body.error.suggestion).toMatch(/X-Portal-Token/);
  });

  it('checks the portal token before reading a body: a big malformed body without it is 401', async () => {
    // 12 MiB of broken JSON: read first, it would be 400 malformed_json.
    const body = `{"accounts": [${'"x",'.repeat(3 * 1024 * 1024)}`;
    const res = await request(sandbox.url)
      .post('/portal/v1/accounts')
      .set('Content-Type', 'application/json')
      .send(body);
    expect(res.status).toBe(401);
    expect(res.body.error.code).toBe('unauthorized');
    const authorised = await sandbox.portal
      .post('/portal/v1/accounts')
      .set('Content-Type', 'application/json')
      .send(body);
    expect(authorised.status).toBe(400);
    expect(authorised.body.error.code).toBe('malformed_json');
  });

  it('checks the token before the size: a body over the limit without a token is 401, with one 413', async () => {
    const body = `{"x": "${'y'.repeat(17 * 1024 * 1024)}"}`;
    const res = await request(sandbox.url)
      .post('/portal/v1/accounts')
      .set('Content-Type', 'application/json')
      .send(body);
    expect(res.status).toBe(401);
    const authorised = await sandbox.portal
      .post('/portal/v1/accounts')
      .set('Content-Type', 'application/json')
      .send(body);
    expect(authorised.status).toBe(413);
  });

  it('checks the API key before reading a /v1 body', async () => {
    const res = await request(sandbox.url)
      .post('/v1/products')
      .set('X-API-Key', 'not-a-key-at-all')
      .set('Content-Type', 'application/json')
      .send('{"product": {');
    expect(res.status).toBe(401);
    expect(res.body.error.suggestion).toMatch(/X-API-Key/);
    const created = await account.api.post('/v1/products', productBody('after-401'));
    expect(created.status).toBe(200);
  });
});
