import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ShopifySandboxHarness, startShopifySandbox } from '#testing/shopify-sandbox';

describe('control API', () => {
  let h: ShopifySandboxHarness;
  beforeAll(async () => {
    h = await startShopifySandbox({
      shops: [
        { domain: 'first.myshopify.com', accessToken: 'shpat_first' },
        { domain: 'second.myshopify.com', accessToken: 'shpat_second' },
      ],
    });
  });
  afterAll(() => h.close());

  it('requires the control token', async () => {
    const response = await fetch(`${h.url}/sandbox/shops`);
    expect(response.status).toBe(401);
    expect(await response.json()).toEqual({ errors: 'Invalid or missing X-Sandbox-Control-Token header' });
  });

  it('lists shops without their tokens', async () => {
    const reply = await h.control('GET', 'shops');
    expect(reply.body.shops).toEqual([
      { domain: 'first.myshopify.com', products: 0, webhookSubscriptions: 0 },
      { domain: 'second.myshopify.com', products: 0, webhookSubscriptions: 0 },
    ]);
    expect(JSON.stringify(reply.body)).not.toContain('shpat_');
  });

  it('creates a shop whose token then picks it on the Admin API', async () => {
    const created = await h.control('POST', 'shops', {
      domain: 'third.myshopify.com',
      accessToken: 'shpat_third',
    });
    expect(created).toEqual({ status: 201, body: { domain: 'third.myshopify.com' } });
    const response = await fetch(`${h.adminUrl}/graphql.json`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'X-Shopify-Access-Token': 'shpat_third' },
      body: JSON.stringify({ query: '{ shop { myshopifyDomain } }' }),
    });
    expect(((await response.json()) as { data: unknown }).data).toEqual({
      shop: { myshopifyDomain: 'third.myshopify.com' },
    });
    expect(
      (await h.control('POST', 'shops', { domain: 'third.myshopify.com', accessToken: 'x' })).status,
    ).toBe(409);
    expect(
      (await h.control('POST', 'shops', { domain: 'fourth.example.com', accessToken: 'x' })).status,
    ).toBe(400);
  });

  it('keeps shops apart', async () => {
    await h.merchant('POST', 'products.json', { product: { title: 'Only in first' } });
    const response = await fetch(`${h.adminUrl}/products.json`, {
      headers: { 'X-Shopify-Access-Token': 'shpat_second' },
    });
    expect(((await response.json()) as { products: unknown[] }).products).toEqual([]);
  });

  it('refuses a token of another shop when the Host names a shop', async () => {
    const statusWithHost = (token: string) =>
      new Promise<number | undefined>((resolve, reject) => {
        const req = request(`${h.adminUrl}/products.json`, {
          headers: { 'X-Shopify-Access-Token': token, Host: 'first.myshopify.com' },
        });
        req.on('response', (res) => {
          res.resume();
          resolve(res.statusCode);
        });
        req.on('error', reject);
        req.end();
      });
    expect(await statusWithHost('shpat_second')).toBe(401);
    expect(await statusWithHost('shpat_first')).toBe(200);
  });

  it('reads and clears the logs of a shop, and names an unknown shop', async () => {
    expect((await h.control('GET', 'shops/first.myshopify.com/admin-requests')).body.requests).not.toEqual(
      [],
    );
    await h.control('DELETE', 'shops/first.myshopify.com/admin-requests');
    expect((await h.control('GET', 'shops/first.myshopify.com/admin-requests')).body.requests).toEqual([]);
    expect((await h.control('GET', 'shops/first.myshopify.com/deliveries')).body.deliveries).toEqual([]);
    const unknown = await h.control('GET', 'shops/nobody.myshopify.com/deliveries');
    expect(unknown).toEqual({ status: 404, body: { errors: 'Unknown shop nobody.myshopify.com' } });
  });
});
