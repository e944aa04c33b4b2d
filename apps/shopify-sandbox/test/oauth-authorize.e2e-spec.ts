import { createHmac } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { ManualClock } from '#lib/clock';
import {
  type SandboxOverrides,
  type ShopifySandboxHarness,
  startShopifySandbox,
} from '#testing/shopify-sandbox';
import { adminStatus, raw, tokenRequest } from './oauth-client.js';

const CLIENT_ID = 'sandbox-app-client-id';
const CALLBACK = 'https://app.example.com/auth/callback';

describe('GET /admin/oauth/authorize and the authorization code grant', () => {
  let h: ShopifySandboxHarness;
  afterEach(() => h.close());

  const start = async (overrides: SandboxOverrides = {}) => {
    h = await startShopifySandbox(overrides);
    await h.control('PUT', `apps/${CLIENT_ID}`, { redirectUrls: [CALLBACK] });
  };
  const authorize = (params: Record<string, string> = {}) =>
    raw(
      `${h.url}/admin/oauth/authorize?${new URLSearchParams({
        client_id: CLIENT_ID,
        scope: 'read_products,write_products',
        redirect_uri: CALLBACK,
        state: 'nonce-1',
        'grant_options[]': '',
        ...params,
      })}`,
      { headers: { Host: h.shopDomain } },
    );
  /** Authorizes and approves as the merchant: the signed redirect's query. */
  const approvedQuery = async (params: Record<string, string> = {}) => {
    const screen = await authorize(params);
    expect(screen.status).toBe(200);
    const id = screen.headers['x-sandbox-grant-id'] as string;
    const approved = await h.control('POST', `shops/${h.shopDomain}/grants/${id}/approve`);
    expect(approved.status).toBe(200);
    return new URL(approved.body.location as string).searchParams;
  };
  const exchange = (code: string, extra: Record<string, string> = {}) =>
    tokenRequest(h, { client_id: CLIENT_ID, client_secret: h.appSecret, code, ...extra });

  it('shows the grant screen until the merchant approves, then redirects with a signed query', async () => {
    await start();
    const screen = await authorize();
    expect(screen.text).toContain('read_products, write_products');
    const pending = await h.control('GET', `shops/${h.shopDomain}/grants`);
    expect(pending.body.grants).toEqual([
      expect.objectContaining({
        clientId: CLIENT_ID,
        scopes: ['read_products', 'write_products'],
        state: 'nonce-1',
      }),
    ]);
    const id = screen.headers['x-sandbox-grant-id'] as string;
    const { location } = (await h.control('POST', `shops/${h.shopDomain}/grants/${id}/approve`)).body as {
      location: string;
    };
    const url = new URL(location);
    expect(`${url.origin}${url.pathname}`).toBe(CALLBACK);
    const query = Object.fromEntries(url.searchParams);
    expect(Object.keys(query).sort()).toEqual(['code', 'hmac', 'host', 'shop', 'state', 'timestamp']);
    expect(query).toMatchObject({ shop: h.shopDomain, state: 'nonce-1' });
    expect(Buffer.from(query.host as string, 'base64').toString()).toBe('admin.shopify.com/store/demo');
    const { hmac, ...rest } = query;
    const message = Object.keys(rest)
      .sort()
      .map((key) => `${key}=${rest[key]}`)
      .join('&');
    expect(hmac).toBe(createHmac('sha256', h.appSecret).update(message).digest('hex'));
    // Approved scopes are remembered: the same request now redirects at once.
    const again = await authorize({ state: 'nonce-2' });
    expect(again.status).toBe(302);
    expect(new URL(again.headers.location as string).searchParams.get('state')).toBe('nonce-2');
  });

  it('refuses a redirect URI that is not on the app list, and an unknown app, as Shopify does', async () => {
    await start();
    const wrong = await authorize({ redirect_uri: 'https://evil.example.com/cb' });
    expect(wrong.status).toBe(400);
    expect(wrong.text).toContain('Oauth error invalid_request: The redirect_uri is not whitelisted');
    const unknown = await authorize({ client_id: 'nope' });
    expect(unknown.text).toContain('Could not find Shopify API application with api_key nope');
    const online = await authorize({ 'grant_options[]': 'per-user' });
    expect(online.status).toBe(400);
    expect(online.text).toContain('online access');
  });

  it('forgets a declined request: nothing installed, no redirect', async () => {
    await start();
    const id = (await authorize()).headers['x-sandbox-grant-id'] as string;
    expect((await h.control('POST', `shops/${h.shopDomain}/grants/${id}/decline`)).body).toEqual({
      declined: true,
    });
    expect((await h.control('POST', `shops/${h.shopDomain}/grants/${id}/approve`)).status).toBe(404);
  });

  it('redirects at once with the auto-approve switch', async () => {
    await start({ oauth: { autoApprove: true } });
    const answer = await authorize();
    expect(answer.status).toBe(302);
    expect(new URL(answer.headers.location as string).searchParams.get('code')).toMatch(/^[0-9a-f]{32}$/);
  });

  it('exchanges a code once for a non-expiring offline token, the same one on every authorization', async () => {
    await start();
    const code = (await approvedQuery()).get('code') as string;
    const first = await exchange(code);
    expect(first.status).toBe(200);
    expect(first.body).toEqual({
      access_token: expect.stringMatching(/^shpat_/),
      scope: 'read_products,write_products',
    });
    expect(await adminStatus(h, first.body.access_token as string)).toBe(200);
    const reused = await exchange(code);
    expect(reused.status).toBe(400);
    expect(reused.body).toEqual({
      error: 'invalid_request',
      error_description: 'The authorization code was not found or was already used',
    });
    // Authorizing again needs no approval (the scopes are granted) and gives the same token.
    const again = new URL((await authorize()).headers.location as string).searchParams.get('code') as string;
    const second = await exchange(again);
    expect(second.body.access_token).toBe(first.body.access_token);
  });

  it('refuses a code older than 10 minutes', async () => {
    const clock = new ManualClock(Date.now());
    await start({ clock, oauth: { autoApprove: true } });
    const code = new URL((await authorize()).headers.location as string).searchParams.get('code') as string;
    await clock.advance(600_000);
    expect((await exchange(code)).body.error_description).toBe(
      'The authorization code was not found or was already used',
    );
  });

  it('with expiring=1: a 60-minute token and a 90-day refresh token, rotated on refresh', async () => {
    const clock = new ManualClock(Date.now());
    await start({ clock, oauth: { autoApprove: true } });
    const code = new URL((await authorize()).headers.location as string).searchParams.get('code') as string;
    const pair = await exchange(code, { expiring: '1' });
    expect(pair.body).toEqual({
      access_token: expect.stringMatching(/^shpat_/),
      scope: 'read_products,write_products',
      expires_in: 3_600,
      refresh_token: expect.stringMatching(/^shprt_/),
      refresh_token_expires_in: 7_776_000,
    });
    const refresh = (token: string) =>
      tokenRequest(
        h,
        {
          grant_type: 'refresh_token',
          client_id: CLIENT_ID,
          client_secret: h.appSecret,
          refresh_token: token,
        },
        'form',
      );
    await clock.advance(3_600_000);
    expect(await adminStatus(h, pair.body.access_token as string)).toBe(401);
    const lost = await refresh(pair.body.refresh_token as string);
    expect(lost.status).toBe(200);
    // The answer was lost: the first refresh token still works, until its replacement is used.
    const retried = await refresh(pair.body.refresh_token as string);
    expect(retried.status).toBe(200);
    expect(await adminStatus(h, retried.body.access_token as string)).toBe(200);
    expect((await refresh(retried.body.refresh_token as string)).status).toBe(200);
    const retired = await refresh(pair.body.refresh_token as string);
    expect(retired.status).toBe(400);
    expect(retired.body).toMatchObject({ error: 'invalid_grant' });
  });
});
