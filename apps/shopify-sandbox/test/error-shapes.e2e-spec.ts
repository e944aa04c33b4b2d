import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ShopifySandboxHarness, startShopifySandbox } from '#testing/shopify-sandbox';

/** One raw call: status, headers and parsed body, whatever the body's shape. */
async function call(url: string, init: RequestInit = {}) {
  const response = await fetch(url, init);
  const text = await response.text();
  return { status: response.status, headers: response.headers, body: JSON.parse(text) as unknown };
}

/** NestJS's default error body; no answer of the sandbox may have it. */
function expectShopifyShape(body: unknown) {
  expect(body).toEqual({ errors: expect.anything() });
  expect(Object.keys(body as object)).toEqual(['errors']);
}

describe('Shopify sandbox: every refusal in Shopify’s shape', () => {
  let h: ShopifySandboxHarness;
  const json = (token: string) => ({ 'Content-Type': 'application/json', 'X-Shopify-Access-Token': token });
  beforeAll(async () => {
    h = await startShopifySandbox({
      shops: [{ domain: 'shapes.myshopify.com', accessToken: 'shpat_shapes' }],
    });
  });
  afterAll(() => h.close());

  it('answers malformed JSON on Admin GraphQL with 400 and the query-parameter error, and logs it', async () => {
    const reply = await call(`${h.adminUrl}/graphql.json`, {
      method: 'POST',
      headers: json('shpat_shapes'),
      body: '{"query": "{ shop { name } }",',
    });
    expect(reply.status).toBe(400);
    expect(reply.body).toEqual({ errors: { query: 'Required parameter missing or invalid' } });
    const logged = await h.adminRequests({ api: 'graphql' });
    expect(logged.at(-1)).toMatchObject({ httpStatus: 400, outcome: 'rejected' });
  });

  it('answers malformed JSON on the REST and control APIs with 400 {"errors": "..."}', async () => {
    const rest = await call(`${h.adminUrl}/products.json`, {
      method: 'POST',
      headers: json('shpat_shapes'),
      body: '{"product": {"title": ',
    });
    expect(rest.status).toBe(400);
    expectShopifyShape(rest.body);
    expect((rest.body as { errors: string }).errors).toMatch(/not valid JSON/);
    const control = await call(`${h.url}/sandbox/shops`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'X-Sandbox-Control-Token': h.controlToken },
      body: '{',
    });
    expect(control.status).toBe(400);
    expectShopifyShape(control.body);
  });

  it('answers unknown routes with 404 {"errors": "Not Found"}, with or without a token', async () => {
    for (const path of [
      '/nope',
      '/admin/api/2026-07/orders.json',
      '/cdn/shops/x/files/1/a.png',
      '/sandbox/x',
    ]) {
      const reply = await call(`${h.url}${path}`, { headers: json('shpat_shapes') });
      expect(reply.status, path).toBe(404);
      expect(reply.body, path).toEqual({ errors: 'Not Found' });
    }
  });

  it('answers a wrong method with 405, an Allow header and {"errors": ...}', async () => {
    const graphql = await call(`${h.adminUrl}/graphql.json`, { headers: json('shpat_shapes') });
    expect(graphql.status).toBe(405);
    expect(graphql.headers.get('allow')).toBe('POST');
    expectShopifyShape(graphql.body);
    const product = await call(`${h.adminUrl}/products/1.json`, {
      method: 'PATCH',
      headers: json('shpat_shapes'),
      body: '{}',
    });
    expect(product.status).toBe(405);
    expect(product.headers.get('allow')).toBe('DELETE, GET, HEAD, PUT');
    expectShopifyShape(product.body);
  });

  it('answers an oversized body with 413 {"errors": ...}', async () => {
    const reply = await call(`${h.adminUrl}/products.json`, {
      method: 'POST',
      headers: json('shpat_shapes'),
      body: `{"product": {"title": "${'x'.repeat(26 * 1024 * 1024)}"}}`,
    });
    expect(reply.status).toBe(413);
    expectShopifyShape(reply.body);
    const graphql = await call(`${h.adminUrl}/graphql.json`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/graphql', 'X-Shopify-Access-Token': 'shpat_shapes' },
      body: `{ shop { name } }${' '.repeat(1024 * 1024)}`,
    });
    expect(graphql.status).toBe(413);
    expectShopifyShape(graphql.body);
  });

  it('answers a wrong token with 401 and Shopify’s message, and a taken shop with 409', async () => {
    const token = await call(`${h.adminUrl}/products.json`, { headers: json('shpat_wrong') });
    expect(token.status).toBe(401);
    expect(token.body).toEqual({
      errors: '[API] Invalid API key or access token (unrecognized login or wrong password)',
    });
    const taken = await h.control('POST', 'shops', { domain: 'shapes.myshopify.com', accessToken: 'other' });
    expect(taken.status).toBe(409);
    expectShopifyShape(taken.body);
  });

  it('answers field errors with 422 and the errors per field', async () => {
    const reply = await h.merchant('POST', 'products.json', { product: { title: '  ' } });
    expect(reply).toEqual({ status: 422, body: { errors: { title: ["can't be blank"] } } });
  });
});
