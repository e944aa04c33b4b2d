import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ShopifySandboxHarness, startShopifySandbox } from '#testing/shopify-sandbox';
import { raw, tokenRequest } from './oauth-client.js';

const SHOP = 'logged.myshopify.com';

describe('request log: refused requests and token calls', () => {
  let h: ShopifySandboxHarness;
  beforeAll(async () => {
    h = await startShopifySandbox({ shops: [{ domain: SHOP, accessToken: 'shpat_logged' }] });
  });
  afterAll(() => h.close());

  it('logs a 401 on the shop the request names, by Host or X-Shopify-Shop-Domain', async () => {
    await h.control('DELETE', `shops/${SHOP}/admin-requests`);
    const graphql = await raw(`${h.adminUrl}/graphql.json`, {
      method: 'POST',
      headers: {
        'Content-Type': 'application/json',
        'X-Shopify-Access-Token': 'shpat_revoked',
        'X-Shopify-Shop-Domain': SHOP,
      },
      body: JSON.stringify({ query: '{ shop { name } }' }),
    });
    const rest = await raw(`${h.adminUrl}/products.json`, { headers: { Host: SHOP } });
    expect([graphql.status, rest.status]).toEqual([401, 401]);
    const logged = await h.adminRequests();
    expect(logged).toEqual([
      expect.objectContaining({
        api: 'graphql',
        method: 'POST',
        path: '/admin/api/2026-07/graphql.json',
        outcome: 'rejected',
        httpStatus: 401,
        at: expect.any(String),
      }),
      expect.objectContaining({
        api: 'rest',
        method: 'GET',
        path: '/admin/api/2026-07/products.json',
        outcome: 'rejected',
        httpStatus: 401,
      }),
    ]);
    expect(JSON.stringify(logged)).not.toContain('shpat_revoked');
  });

  it('logs token endpoint calls with their status, refused ones included', async () => {
    await h.control('DELETE', `shops/${SHOP}/admin-requests`);
    const refused = await tokenRequest(h, {
      grant_type: 'client_credentials',
      client_id: 'sandbox-app-client-id',
      client_secret: 'wrong-secret',
    });
    const granted = await tokenRequest(h, {
      grant_type: 'client_credentials',
      client_id: 'sandbox-app-client-id',
      client_secret: h.appSecret,
    });
    expect(granted.status).toBe(200);
    expect(refused.status).toBeGreaterThanOrEqual(400);
    const logged = await h.adminRequests({ api: 'oauth' });
    expect(logged.map((r) => [r.method, r.path, r.httpStatus, r.outcome])).toEqual([
      ['POST', '/admin/oauth/access_token', refused.status, 'rejected'],
      ['POST', '/admin/oauth/access_token', 200, 'ok'],
    ]);
    expect(JSON.stringify(logged)).not.toContain(granted.body.access_token as string);
  });
});

describe('200 shops made at run time', () => {
  let h: ShopifySandboxHarness;
  beforeAll(async () => {
    h = await startShopifySandbox();
  });
  afterAll(() => h.close());

  it('creates them through the control API, each answering its own token', async () => {
    const domains = Array.from({ length: 200 }, (_, i) => `tenant-${i}.myshopify.com`);
    for (const [i, domain] of domains.entries()) {
      const created = await h.control('POST', 'shops', { domain, accessToken: `shpat_tenant_${i}` });
      expect(created.status).toBe(201);
    }
    const shops = (await h.control('GET', 'shops')).body.shops as Array<{ domain: string }>;
    expect(shops.map((s) => s.domain)).toEqual(expect.arrayContaining(domains));
    for (const i of [0, 137, 199]) {
      const response = await fetch(`${h.adminUrl}/graphql.json`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', 'X-Shopify-Access-Token': `shpat_tenant_${i}` },
        body: JSON.stringify({ query: '{ shop { myshopifyDomain } }' }),
      });
      expect(await response.json()).toMatchObject({ data: { shop: { myshopifyDomain: domains[i] } } });
    }
    const taken = await h.control('POST', 'shops', {
      domain: 'other.myshopify.com',
      accessToken: 'shpat_tenant_7',
    });
    expect(taken.status).toBe(409);
  });
});
