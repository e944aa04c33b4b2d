import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Secret } from '../src/platform/config/secret.js';
import { TokenCipher } from '../src/shops/token-cipher.js';
import { call } from './support/admin-client.js';
import { type ConnectorHarness, eventually, startConnector } from './support/connector-harness.js';
import { authorizeInstall, landInstall } from './support/install-browser.js';
import { type Sandboxes, startSandboxes } from './support/sandboxes.js';
import { productUpdateBody, type TestShop, testShop } from './support/test-shop.js';

const ADMIN_TOKEN = `reauth-${randomBytes(8).toString('hex')}`;
const KEY = randomBytes(32).toString('base64');

interface ShopEntry {
  shop: string;
  state: string;
  stateReason: string | null;
}

// An installed shop whose refresh is refused (Shopify answers invalid_grant) goes to
// needs_reauth: its jobs wait, nothing fails; the merchant installs again and they resume.
describe('a refused refresh, then a new install', () => {
  let sandboxes: Sandboxes;
  let harness: ConnectorHarness;
  let shop: TestShop;

  const entry = async () =>
    (await call<{ shops: ShopEntry[] }>(harness.url, 'GET', '/admin/shops', ADMIN_TOKEN)).body.shops.find(
      (s) => s.shop === shop.domain,
    );
  const install = async () => {
    const { callback, cookie } = await authorizeInstall(harness, shop.domain, sandboxes.shopifyFetch);
    const landed = await landInstall(callback, cookie);
    expect(landed.status, await landed.clone().text()).toBe(200);
  };

  beforeAll(async () => {
    sandboxes = await startSandboxes({ oauth: { autoApprove: true, tokenTtlS: 2 } });
    shop = testShop({ webhookSecrets: [sandboxes.shopify.appSecret] });
    await sandboxes.addShop(shop);
    harness = await startConnector({
      shops: [shop],
      catalogUrl: sandboxes.catalog.url,
      catalogApiKey: (await sandboxes.account()).apiKey,
      shopifyFetch: sandboxes.shopifyFetch,
      publicUrl: true,
      env: {
        [`CONNECTOR_SHOP_${shop.key}_ACCESS_TOKEN`]: undefined,
        [`CONNECTOR_SHOP_${shop.key}_AUTH`]: 'installed',
        CONNECTOR_SHOPIFY_CLIENT_ID: sandboxes.shopify.clientId,
        CONNECTOR_SHOPIFY_CLIENT_SECRET: sandboxes.shopify.appSecret,
        CONNECTOR_ENCRYPTION_KEYS: KEY,
        CONNECTOR_SHOPIFY_REAUTH_RECHECK_MS: '300',
        CONNECTOR_ADMIN_TOKEN: ADMIN_TOKEN,
        CONNECTOR_MEDIA_ENABLED: 'false',
      },
    });
    await sandboxes.shopify.control('PUT', `apps/${sandboxes.shopify.clientId}`, {
      redirectUrls: [`${harness.url}/auth/shopify/callback`],
    });
  });
  afterAll(async () => {
    await harness?.close();
    await sandboxes?.close();
  });

  it('waits in needs_reauth without failing, and resumes after the merchant installs again', async () => {
    await install();
    expect(await entry()).toMatchObject({ state: 'active' });
    // The stored refresh token is one Shopify does not know: the next renewal is refused.
    const bogus = new TokenCipher([new Secret(KEY)]).encrypt(`shprt_${randomBytes(16).toString('hex')}`);
    await harness.db.query(
      `UPDATE "${harness.schema}".shop_sessions SET refresh_token = $2 WHERE shop = $1`,
      [shop.domain, bogus],
    );
    const created = await sandboxes.merchant(shop, 'POST', 'products.json', {
      product: { title: 'Refused' },
    });
    const productId = String((created.body.product as { id: number }).id);
    // Past the 2 s token: the sync needs a renewal, and Shopify refuses it.
    await eventually(async () => {
      await harness.deliver({ shop, body: productUpdateBody(productId, new Date().toISOString()) });
      return (await entry())?.state === 'needs_reauth';
    }, 30_000);
    expect((await entry())?.stateReason).toMatch(/^invalid_grant/);
    // A delivery now: its sync runs, finds the shop waiting, and waits (no failure).
    await harness.deliver({
      shop,
      body: productUpdateBody(productId, new Date(Date.now() + 60_000).toISOString()),
    });
    const open = async () => (await harness.inbox(shop.domain, productId)).filter((d) => d.state !== 'done');
    // Its job has run and waits (delayed), nothing failed.
    await eventually(async () => {
      const queues = await call<{ queues: Array<{ name: string; delayed: number }> }>(
        harness.url,
        'GET',
        '/admin/queues',
        ADMIN_TOKEN,
      );
      return queues.body.queues.some((queue) => queue.name === 'sync-product' && queue.delayed > 0);
    });
    expect(
      (await call<{ total: number }>(harness.url, 'GET', '/admin/failures', ADMIN_TOKEN)).body.total,
    ).toBe(0);
    expect((await open()).length).toBeGreaterThan(0);

    await install();
    expect(await entry()).toMatchObject({ state: 'active', stateReason: null });
    await eventually(async () => {
      const inbox = await harness.inbox(shop.domain, productId);
      return inbox.length > 0 && inbox.every((d) => d.state === 'done');
    }, 30_000);
    expect(
      (await call<{ total: number }>(harness.url, 'GET', '/admin/failures', ADMIN_TOKEN)).body.total,
    ).toBe(0);
  });
});
