import '@shopify/shopify-api/adapters/node';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ApiVersion, type Session, shopifyApi } from '@shopify/shopify-api';
import { setAbstractFetchFunc } from '@shopify/shopify-api/runtime';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ShopifySandboxHarness, startShopifySandbox } from '#testing/shopify-sandbox';
import { appConfig } from '../src/apps/app-config.js';
import { sandboxFetch } from '../src/index.js';

const ORGANIZATION_APP = 'sandbox-app-client-id';
const PUBLIC_APP = 'partner-app';
const PUBLIC_SECRET = 'partner-app-secret';
const APP_HOST = 'connector.example.com';
// The library refuses OAuth requests from bots (`isbot`): the merchant uses a browser.
const BROWSER = {
  'User-Agent':
    'Mozilla/5.0 (Macintosh; Intel Mac OS X 14_0) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Safari/605.1.15',
};

// `@shopify/shopify-api`'s own OAuth code, unchanged, against the sandbox: client credentials,
// begin/callback with expiring offline tokens, refresh, and the migration of a non-expiring token.
describe("@shopify/shopify-api's auth against the sandbox", () => {
  let h: ShopifySandboxHarness;
  let appServer: Server;
  let appUrl: string;
  let callbackSession: Session | undefined;

  const api = (apiKey: string, apiSecretKey: string) =>
    shopifyApi({
      apiKey,
      apiSecretKey,
      scopes: ['read_products', 'write_products'],
      hostName: APP_HOST,
      isEmbeddedApp: false,
      apiVersion: ApiVersion.July26,
      logger: { level: 0, log: async () => {} },
    });
  const publicApp = api(PUBLIC_APP, PUBLIC_SECRET);

  beforeAll(async () => {
    const partner = appConfig(PUBLIC_APP, PUBLIC_SECRET, 'public');
    partner.redirectUrls = [`https://${APP_HOST}/auth/callback`];
    h = await startShopifySandbox({ apps: [appConfig(ORGANIZATION_APP, 'unused'), partner] });
    setAbstractFetchFunc(sandboxFetch(h.url));
    // The app's own routes, as a connector would serve them.
    appServer = createServer((req, res) => {
      void (async () => {
        if (req.url?.startsWith('/auth/callback')) {
          const { session } = await publicApp.auth.callback({
            rawRequest: req,
            rawResponse: res,
            expiring: true,
          });
          callbackSession = session;
          res.end('installed');
        } else {
          await publicApp.auth.begin({
            shop: h.shopDomain,
            callbackPath: '/auth/callback',
            isOnline: false,
            rawRequest: req,
            rawResponse: res,
          });
        }
      })().catch((error: unknown) => {
        res.statusCode = 500;
        res.end(String(error));
      });
    });
    await new Promise<void>((resolve) => appServer.listen(0, '127.0.0.1', resolve));
    appUrl = `http://127.0.0.1:${(appServer.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    setAbstractFetchFunc(globalThis.fetch);
    await new Promise((resolve) => appServer.close(resolve));
    await h.close();
  });

  const shopName = async (session: Session, shopify = publicApp) => {
    const client = new shopify.clients.Graphql({ session });
    const reply = await client.request<{ shop: { myshopifyDomain: string } }>('{ shop { myshopifyDomain } }');
    return reply.data?.shop.myshopifyDomain;
  };

  it('auth.clientCredentials: a 24-hour session for an organization app', async () => {
    const organization = api(ORGANIZATION_APP, h.appSecret);
    const { session } = await organization.auth.clientCredentials({ shop: h.shopDomain });
    expect(session.accessToken).toMatch(/^shpat_/);
    expect(session.scope).toBe('read_products,write_products,read_inventory,write_inventory');
    const lifetime = (session.expires?.getTime() ?? 0) - Date.now();
    expect(lifetime).toBeGreaterThan(86_000_000);
    expect(lifetime).toBeLessThanOrEqual(86_399_000);
    expect(await shopName(session, organization)).toBe(h.shopDomain);
    // A public app may not use client credentials.
    await expect(publicApp.auth.clientCredentials({ shop: h.shopDomain })).rejects.toMatchObject({
      response: { code: 400, body: { error: 'shop_not_permitted' } },
    });
  });

  it('auth.begin and auth.callback (expiring), approved by the merchant, then auth.refreshToken', async () => {
    // begin: the app redirects the merchant to the shop's authorize page, with a signed state cookie.
    const begun = await fetch(`${appUrl}/auth`, { redirect: 'manual', headers: BROWSER });
    expect(begun.status).toBe(302);
    const authorizeUrl = begun.headers.get('location') as string;
    expect(authorizeUrl).toMatch(new RegExp(`^https://${h.shopDomain}/admin/oauth/authorize\\?`));
    const cookie = begun.headers
      .getSetCookie()
      .map((c) => c.split(';')[0])
      .join('; ');

    // The merchant's browser follows it: the grant screen; the merchant approves.
    const screen = await sandboxFetch(h.url)(authorizeUrl, { redirect: 'manual', headers: BROWSER });
    expect(screen.status).toBe(200);
    await screen.text();
    const grantId = screen.headers.get('x-sandbox-grant-id') as string;
    const approved = await h.control('POST', `shops/${h.shopDomain}/grants/${grantId}/approve`);
    const redirect = new URL(approved.body.location as string);
    expect(redirect.host).toBe(APP_HOST);

    // The browser lands on the app's callback, with the state cookie: the library checks the
    // hmac and state, then exchanges the code with expiring=1.
    const landed = await fetch(`${appUrl}${redirect.pathname}${redirect.search}`, {
      headers: { ...BROWSER, cookie },
    });
    expect(await landed.text()).toBe('installed');
    const session = callbackSession as Session;
    expect(session.isOnline).toBe(false);
    // The library keeps `write_products` alone (it implies `read_products`).
    expect(publicApp.config.scopes?.equals(session.scope)).toBe(true);
    expect(session.refreshToken).toMatch(/^shprt_/);
    const expiresIn = (session.expires?.getTime() ?? 0) - Date.now();
    expect(expiresIn).toBeGreaterThan(3_500_000);
    expect(expiresIn).toBeLessThanOrEqual(3_600_000);
    const refreshLife = (session.refreshTokenExpires?.getTime() ?? 0) - Date.now();
    expect(refreshLife).toBeGreaterThan(89 * 86_400_000);
    expect(await shopName(session)).toBe(h.shopDomain);

    // refreshToken: a new pair; the previous refresh token is retired once the new one is used.
    const { session: refreshed } = await publicApp.auth.refreshToken({
      shop: h.shopDomain,
      refreshToken: session.refreshToken as string,
    });
    expect(refreshed.accessToken).not.toBe(session.accessToken);
    expect(refreshed.refreshToken).not.toBe(session.refreshToken);
    expect(await shopName(refreshed)).toBe(h.shopDomain);
    await publicApp.auth.refreshToken({ shop: h.shopDomain, refreshToken: refreshed.refreshToken as string });
    await expect(
      publicApp.auth.refreshToken({ shop: h.shopDomain, refreshToken: session.refreshToken as string }),
    ).rejects.toMatchObject({ response: { code: 400, body: { error: 'invalid_grant' } } });
  });

  it('auth.migrateToExpiringToken: a legacy token becomes an expiring session; a retry gets the same one', async () => {
    const legacy = await h.control('POST', `shops/${h.shopDomain}/legacy-token`, { clientId: PUBLIC_APP });
    const nonExpiringOfflineAccessToken = legacy.body.accessToken as string;
    const { session } = await publicApp.auth.migrateToExpiringToken({
      shop: h.shopDomain,
      nonExpiringOfflineAccessToken,
    });
    expect(session.isOnline).toBe(false);
    expect(session.accessToken).not.toBe(nonExpiringOfflineAccessToken);
    expect(session.refreshToken).toMatch(/^shprt_/);
    const expiresIn = (session.expires?.getTime() ?? 0) - Date.now();
    expect(expiresIn).toBeGreaterThan(3_500_000);
    expect(expiresIn).toBeLessThanOrEqual(3_600_000);
    expect(await shopName(session)).toBe(h.shopDomain);
    const { session: retried } = await publicApp.auth.migrateToExpiringToken({
      shop: h.shopDomain,
      nonExpiringOfflineAccessToken,
    });
    expect([retried.accessToken, retried.refreshToken]).toEqual([session.accessToken, session.refreshToken]);
    await expect(
      publicApp.auth.migrateToExpiringToken({
        shop: h.shopDomain,
        nonExpiringOfflineAccessToken: 'shpat_nope',
      }),
    ).rejects.toMatchObject({ response: { code: 400, body: { error: 'invalid_subject_token' } } });
  });
});
