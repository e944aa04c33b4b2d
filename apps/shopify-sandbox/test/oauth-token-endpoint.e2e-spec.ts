import { afterEach, describe, expect, it } from 'vitest';
import { ManualClock } from '#lib/clock';
import {
  type SandboxOverrides,
  type ShopifySandboxHarness,
  startShopifySandbox,
} from '#testing/shopify-sandbox';
import { appConfig } from '../src/apps/app-config.js';
import { adminStatus, INVALID_TOKEN, raw, tokenRequest } from './oauth-client.js';

const CLIENT_ID = 'sandbox-app-client-id';

describe('POST /admin/oauth/access_token', () => {
  let h: ShopifySandboxHarness;
  afterEach(() => h.close());
  const start = async (overrides: SandboxOverrides = {}) => {
    h = await startShopifySandbox(overrides);
  };
  const credentials = () => ({
    grant_type: 'client_credentials',
    client_id: CLIENT_ID,
    client_secret: h.appSecret,
  });

  it('grants an organization app a 24-hour token by client credentials, form-encoded or JSON', async () => {
    await start();
    for (const encoding of ['form', 'json'] as const) {
      const answer = await tokenRequest(h, credentials(), encoding);
      expect(answer.status).toBe(200);
      expect(answer.body).toEqual({
        access_token: expect.stringMatching(/^shpat_/),
        scope: 'read_products,write_products,read_inventory,write_inventory',
        expires_in: 86_399,
      });
      expect(await adminStatus(h, answer.body.access_token as string)).toBe(200);
    }
  });

  it('finds the shop in the Host header, ?shop= or X-Shopify-Shop-Domain', async () => {
    await start();
    const body = JSON.stringify(credentials());
    const json = { 'Content-Type': 'application/json' };
    const byHost = await raw(`${h.url}/admin/oauth/access_token`, {
      method: 'POST',
      headers: { ...json, Host: h.shopDomain },
      body,
    });
    const byQuery = await raw(`${h.url}/admin/oauth/access_token?shop=${h.shopDomain}`, {
      method: 'POST',
      headers: json,
      body,
    });
    expect([byHost.status, byQuery.status]).toEqual([200, 200]);
    const noShop = await raw(`${h.url}/admin/oauth/access_token`, { method: 'POST', headers: json, body });
    expect(noShop.status).toBe(400);
    expect(noShop.body.error).toBe('invalid_request');
    const unknownShop = await raw(`${h.url}/admin/oauth/access_token?shop=nope.myshopify.com`, {
      method: 'POST',
      headers: json,
      body,
    });
    expect(unknownShop).toMatchObject({ status: 404, body: { errors: 'Not Found' } });
  });

  it('refuses a wrong secret, an unknown app and a missing grant type in the OAuth shape', async () => {
    await start();
    const wrong = await tokenRequest(h, { ...credentials(), client_secret: 'nope' });
    expect(wrong.status).toBe(401);
    expect(wrong.body).toEqual({ error: 'invalid_client', error_description: expect.any(String) });
    const unknown = await tokenRequest(h, { ...credentials(), client_id: 'nope' });
    expect(unknown.status).toBe(400);
    expect(unknown.body).toEqual({
      error: 'invalid_request',
      error_description: 'Could not find Shopify API application with api_key nope',
    });
    const odd = await tokenRequest(h, { ...credentials(), grant_type: 'password' });
    expect(odd).toMatchObject({ status: 400, body: { error: 'unsupported_grant_type' } });
  });

  it('refuses client credentials to custom and public apps', async () => {
    const apps = [
      appConfig(CLIENT_ID, 'sandbox-app-secret'),
      appConfig('partner', 'partner-secret', 'public'),
    ];
    await start({ apps });
    const answer = await tokenRequest(h, {
      grant_type: 'client_credentials',
      client_id: 'partner',
      client_secret: 'partner-secret',
    });
    expect(answer.status).toBe(400);
    expect(answer.body).toEqual({
      error: 'shop_not_permitted',
      error_description: 'Client credentials cannot be performed on this shop.',
    });
  });

  it('refuses an app that is not installed', async () => {
    await start();
    await h.control('POST', `shops/${h.shopDomain}/uninstall`, {});
    const answer = await tokenRequest(h, credentials());
    expect(answer).toMatchObject({ status: 400, body: { error: 'invalid_request' } });
  });

  it('answers an expired or unknown token as Shopify does; SHOPIFY_SANDBOX_TOKEN_TTL_S shortens expiring tokens', async () => {
    const clock = new ManualClock(Date.UTC(2026, 10, 1));
    await start({ clock, oauth: { tokenTtlS: 60 } });
    const answer = await tokenRequest(h, credentials());
    expect(answer.body.expires_in).toBe(60);
    const token = answer.body.access_token as string;
    expect(await adminStatus(h, token)).toBe(200);
    await clock.advance(59_999);
    expect(await adminStatus(h, token)).toBe(200);
    await clock.advance(1);
    const expired = await fetch(`${h.adminUrl}/graphql.json`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'X-Shopify-Access-Token': token },
      body: JSON.stringify({ query: '{ shop { name } }' }),
    });
    expect(expired.status).toBe(401);
    expect(await expired.json()).toEqual(INVALID_TOKEN);
    expect(await adminStatus(h, 'shpat_unknown')).toBe(401);
    // The seeded shop's static token (a legacy custom app's) never expires.
    expect(await adminStatus(h, h.accessToken)).toBe(200);
  });
});
