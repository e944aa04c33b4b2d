import { createHmac, randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call } from './support/admin-client.js';
import { type ConnectorHarness, eventually, startConnector } from './support/connector-harness.js';
import { authorizeInstall, BROWSER, landInstall } from './support/install-browser.js';
import { type Sandboxes, startSandboxes } from './support/sandboxes.js';
import { productUpdateBody, type TestShop, testShop } from './support/test-shop.js';

const ADMIN_TOKEN = `install-admin-${randomBytes(8).toString('hex')}`;
interface ShopEntry {
  shop: string;
  authKind: string;
  state: string;
  tokenExpiresAt: string | null;
  scopes: string[] | null;
  refreshCount: number;
}

// A shop of kind `installed` installs the app through the connector's OAuth routes
// (`@shopify/shopify-api`'s begin and callback, expiring offline tokens) against the Shopify
// sandbox, which approves at once; every kind of forged or stale callback is refused.
describe('installing the app: /auth/shopify and its callback', () => {
  let sandboxes: Sandboxes;
  const shop: TestShop = testShop();
  const few: TestShop = testShop();
  let harness: ConnectorHarness;
  let narrow: ConnectorHarness;
  let catalogApiKey = '';

  const start = (shops: TestShop[], scopes?: string) =>
    startConnector({
      shops,
      catalogUrl: sandboxes.catalog.url,
      catalogApiKey,
      shopifyFetch: sandboxes.shopifyFetch,
      publicUrl: true,
      env: {
        ...Object.fromEntries(
          shops.flatMap((s) => [
            [`CONNECTOR_SHOP_${s.key}_ACCESS_TOKEN`, undefined],
            [`CONNECTOR_SHOP_${s.key}_AUTH`, 'installed'],
          ]),
        ),
        CONNECTOR_SHOPIFY_CLIENT_ID: sandboxes.shopify.clientId,
        CONNECTOR_SHOPIFY_CLIENT_SECRET: sandboxes.shopify.appSecret,
        CONNECTOR_ENCRYPTION_KEYS: randomBytes(32).toString('base64'),
        CONNECTOR_SHOPIFY_SCOPES: scopes,
        CONNECTOR_SHOPIFY_REAUTH_RECHECK_MS: '200',
        CONNECTOR_ADMIN_TOKEN: ADMIN_TOKEN,
        CONNECTOR_MEDIA_ENABLED: 'false',
      },
    });

  beforeAll(async () => {
    sandboxes = await startSandboxes({ oauth: { autoApprove: true } });
    await sandboxes.addShop(shop);
    await sandboxes.addShop(few);
    catalogApiKey = (await sandboxes.account()).apiKey;
    harness = await start([shop]);
    narrow = await start([few], 'read_products');
    await sandboxes.shopify.control('PUT', `apps/${sandboxes.shopify.clientId}`, {
      redirectUrls: [harness, narrow].map((h) => `${h.url}/auth/shopify/callback`),
    });
  });
  afterAll(async () => {
    await harness?.close();
    await narrow?.close();
    await sandboxes?.close();
  });

  const authorize = (h: ConnectorHarness, domain: string) =>
    authorizeInstall(h, domain, sandboxes.shopifyFetch);
  const land = landInstall;
  const entry = async (h: ConnectorHarness, domain: string) =>
    (await call<{ shops: ShopEntry[] }>(h.url, 'GET', '/admin/shops', ADMIN_TOKEN)).body.shops.find(
      (s) => s.shop === domain,
    );
  /** The callback URL with `changes`, signed again with the app's secret as Shopify signs it. */
  const resigned = (url: URL, changes: Record<string, string>) => {
    const params: Record<string, string> = Object.fromEntries(url.searchParams);
    delete params.hmac;
    Object.assign(params, changes);
    const signed = new URLSearchParams(
      Object.keys(params)
        .sort()
        .map((k): [string, string] => [k, params[k] ?? '']),
    );
    const hmac = createHmac('sha256', sandboxes.shopify.appSecret)
      .update(signed.toString().replace(/\+/g, '%20'))
      .digest('hex');
    const out = new URL(url.pathname, url.origin);
    for (const [k, v] of signed) out.searchParams.set(k, v);
    out.searchParams.set('hmac', hmac);
    return out;
  };
  const refusal = async (response: Response) => ({
    status: response.status,
    code: ((await response.json()) as { error: { code: string } }).error.code,
  });

  it('refuses a shop that is not a *.myshopify.com host, or one not served as installed', async () => {
    const bad = await fetch(`${harness.url}/auth/shopify?shop=evil.example.com`, { headers: BROWSER });
    expect(await refusal(bad)).toEqual({ status: 400, code: 'install_refused' });
    const other = await fetch(`${harness.url}/auth/shopify?shop=other.myshopify.com`, { headers: BROWSER });
    expect(await refusal(other)).toEqual({ status: 404, code: 'install_unavailable' });
  });

  it('answers a bot-like User-Agent 410 in the error shape, saying why (the library refuses bots)', async () => {
    const bot = await fetch(`${harness.url}/auth/shopify?shop=${shop.domain}`, {
      redirect: 'manual',
      headers: { 'User-Agent': 'curl/8.5.0' },
    });
    expect(bot.status).toBe(410);
    expect(bot.headers.get('set-cookie')).toBeNull();
    const body = (await bot.json()) as { error: { code: string; message: string } };
    expect(body.error.code).toBe('bot_refused');
    expect(body.error.message).toContain('User-Agent');
  });

  it('refuses a forged HMAC, a stale timestamp, a wrong state, a missing cookie: nothing stored', async () => {
    const { callback, cookie } = await authorize(harness, shop.domain);
    const forged = new URL(callback);
    forged.searchParams.set('hmac', '0'.repeat(64));
    const stale = resigned(callback, { timestamp: String(Math.floor(Date.now() / 1000) - 3600) });
    const wrongState = resigned(callback, { state: 'not-the-state-of-the-cookie' });
    for (const [url, withCookie] of [
      [forged, cookie],
      [stale, cookie],
      [wrongState, cookie],
      [callback, ''],
    ] as const) {
      expect(await refusal(await land(url, withCookie))).toEqual({ status: 400, code: 'install_refused' });
    }
    expect(await entry(harness, shop.domain)).toMatchObject({ refreshCount: 0, tokenExpiresAt: null });
  });

  it('installs: an expiring token pair stored, the shop active, its Admin calls made with it', async () => {
    const { callback, cookie } = await authorize(harness, shop.domain);
    const landed = await land(callback, cookie);
    expect(landed.status).toBe(200);
    expect(await landed.text()).toContain(`${shop.domain} is installed`);
    const installed = await entry(harness, shop.domain);
    expect(installed).toMatchObject({ authKind: 'installed', state: 'active', refreshCount: 1 });
    // The library keeps `write_products` alone (it implies `read_products`).
    expect(installed?.scopes?.sort()).toEqual(['read_inventory', 'write_products']);
    const life = Date.parse(installed?.tokenExpiresAt ?? '') - Date.now();
    expect(life).toBeGreaterThan(3_000_000);
    expect(life).toBeLessThanOrEqual(3_600_000);
    const { rows } = await harness.db.query(
      `SELECT access_token, refresh_token FROM "${harness.schema}".shop_sessions WHERE shop = $1`,
      [shop.domain],
    );
    expect(rows[0].access_token).toMatch(/^v1:/);
    expect(rows[0].refresh_token).toMatch(/^v1:/);

    // Its webhooks at once: the product topics and app/uninstalled.
    const topics = await eventually(async () => {
      const nodes = (await sandboxes.subscriptions(shop)).filter(
        (n) => n.uri === `${harness.url}/webhooks/shopify`,
      );
      return nodes.length === 4 && nodes.map((n) => n.topic).sort();
    });
    expect(topics).toEqual(['APP_UNINSTALLED', 'PRODUCTS_CREATE', 'PRODUCTS_DELETE', 'PRODUCTS_UPDATE']);

    // A product's sync reads it from Shopify with the installed token.
    const created = await sandboxes.merchant(shop, 'POST', 'products.json', {
      product: { title: 'Installed' },
    });
    const productId = String((created.body.product as { id: number }).id);
    await harness.deliver({ shop, body: productUpdateBody(productId, new Date().toISOString()) });
    await eventually(async () => {
      const inbox = await harness.inbox(shop.domain, productId);
      return inbox.length === 1 && inbox[0]?.state === 'done';
    });
    const requests = await sandboxes.adminRequests(shop);
    expect(requests.some((r) => r.operationName === 'CanonicalProduct' && r.outcome === 'ok')).toBe(true);
  });

  it('refuses an install granting too few scopes: nothing stored', async () => {
    const { callback, cookie } = await authorize(narrow, few.domain);
    const landed = await land(callback, cookie);
    expect(landed.status).toBe(403);
    const body = (await landed.json()) as { error: { code: string; message: string } };
    expect(body.error.code).toBe('insufficient_scopes');
    expect(body.error.message).toContain('write_products');
    expect(await entry(narrow, few.domain)).toMatchObject({ refreshCount: 0, tokenExpiresAt: null });
  });
});
