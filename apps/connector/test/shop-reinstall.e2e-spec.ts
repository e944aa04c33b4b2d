import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call } from './support/admin-client.js';
import { type ConnectorHarness, eventually, startConnector } from './support/connector-harness.js';
import { authorizeInstall, landInstall } from './support/install-browser.js';
import { type Sandboxes, startSandboxes } from './support/sandboxes.js';
import { productUpdateBody, type TestShop, testShop } from './support/test-shop.js';

const ADMIN_TOKEN = `reinstall-${randomBytes(8).toString('hex')}`;
const HOUR = 3_600_000;

interface ShopEntry {
  shop: string;
  state: string;
  mode: string;
  scopes: string[] | null;
  refreshCount: number;
  lastRefreshAt: string | null;
  installedAt: string | null;
  ignoredDeliveries: number;
  lastIgnoredDelivery: string | null;
}

interface SandboxDelivery {
  webhookId: string;
  eventId: string;
  topic: string;
  triggeredAt: string;
  payload: unknown;
}

// Shops that install the app themselves (OAuth against the Shopify sandbox) and come back: a
// redelivered or late app/uninstalled or shop/redact older than the current installation is
// answered and ignored (it never wipes the new install), and a shop that comes back after a
// redact starts as a new shop (CONNECTOR_NEW_SHOP_MODE), its row holding nothing of before.
describe('a shop that uninstalls and installs the app again', () => {
  let sandboxes: Sandboxes;
  let harness: ConnectorHarness;

  const admin = <T>(method: string, path: string, body?: unknown) =>
    call<T>(harness.url, method, path, ADMIN_TOKEN, body);
  const entry = async (domain: string) =>
    (await admin<{ shops: ShopEntry[] }>('GET', '/admin/shops')).body.shops.find((s) => s.shop === domain);
  const install = async (shop: TestShop) => {
    const { callback, cookie } = await authorizeInstall(harness, shop.domain, sandboxes.shopifyFetch);
    const landed = await landInstall(callback, cookie);
    expect(landed.status, await landed.text()).toBe(200);
  };
  const subscribed = (shop: TestShop) =>
    eventually(async () => {
      const nodes = (await sandboxes.subscriptions(shop)).filter(
        (n) => n.uri === `${harness.url}/webhooks/shopify`,
      );
      return nodes.length === 4;
    });
  /** The merchant uninstalls: Shopify revokes the tokens and sends app/uninstalled (recorded by the sandbox). */
  const uninstall = async (shop: TestShop): Promise<SandboxDelivery> => {
    const answer = await sandboxes.shopify.control('POST', `shops/${shop.domain}/uninstall`);
    expect(answer.status).toBeLessThan(300);
    await eventually(async () => (await entry(shop.domain))?.state === 'uninstalled');
    const log = await sandboxes.shopify.control(
      'GET',
      `shops/${shop.domain}/deliveries?topic=app/uninstalled`,
    );
    const deliveries = (log.body as unknown as { deliveries: SandboxDelivery[] }).deliveries;
    return deliveries.at(-1) as SandboxDelivery;
  };
  /** Sends Shopify's delivery again, as a retry does: the same id, trigger time and payload. */
  const redeliver = (shop: TestShop, delivery: SandboxDelivery, topic = delivery.topic) =>
    harness.deliver({
      shop,
      topic,
      body: JSON.stringify(delivery.payload),
      webhookId: delivery.webhookId,
      eventId: delivery.eventId,
      headers: { 'X-Shopify-Triggered-At': delivery.triggeredAt },
    });

  beforeAll(async () => {
    sandboxes = await startSandboxes({ oauth: { autoApprove: true } });
    harness = await startConnector({
      shops: [],
      catalogUrl: sandboxes.catalog.url,
      catalogApiKey: '',
      shopifyFetch: sandboxes.shopifyFetch,
      publicUrl: true,
      env: {
        CONNECTOR_SHOPIFY_INSTALLS: 'open',
        CONNECTOR_NEW_SHOP_MODE: 'shadow',
        CONNECTOR_SHOPIFY_CLIENT_ID: sandboxes.shopify.clientId,
        CONNECTOR_SHOPIFY_CLIENT_SECRET: sandboxes.shopify.appSecret,
        CONNECTOR_ENCRYPTION_KEYS: randomBytes(32).toString('base64'),
        CONNECTOR_ADMIN_TOKEN: ADMIN_TOKEN,
        CONNECTOR_MEDIA_ENABLED: 'false',
        CONNECTOR_SHOPIFY_REAUTH_RECHECK_MS: '300',
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

  it('a redelivered or late app/uninstalled or shop/redact from before the reinstall is answered and ignored', async () => {
    const shop = testShop({ webhookSecrets: [sandboxes.shopify.appSecret] });
    await sandboxes.addShop(shop);
    await install(shop);
    await subscribed(shop);
    const uninstalled = await uninstall(shop);
    await install(shop);
    expect((await entry(shop.domain))?.state).toBe('active');

    // Shopify retries the uninstall it sent before the reinstall (same id, same trigger time).
    const again = await redeliver(shop, uninstalled);
    expect(again.status).toBe(200);
    expect((await entry(shop.domain))?.state).toBe('active');
    expect(again.body).toMatchObject({
      status: 'ignored',
      reason: 'before_installation',
      topic: 'app/uninstalled',
    });
    // One triggered an hour before the reinstall, and a redact of the installation before.
    const hourEarlier = { ...uninstalled, webhookId: `late-${randomBytes(4).toString('hex')}` };
    hourEarlier.triggeredAt = new Date(Date.now() - HOUR).toISOString();
    expect((await redeliver(shop, hourEarlier)).body).toMatchObject({ status: 'ignored' });
    const redact = { ...hourEarlier, webhookId: `redact-${randomBytes(4).toString('hex')}` };
    redact.payload = { shop_id: 1, shop_domain: shop.domain };
    expect((await redeliver(shop, redact, 'shop/redact')).body).toMatchObject({
      status: 'ignored',
      reason: 'before_installation',
      topic: 'shop/redact',
    });

    // The new install is untouched: active, its token used, its mode kept; the operator sees what was ignored.
    const kept = await entry(shop.domain);
    expect(kept).toMatchObject({ state: 'active', mode: 'shadow', ignoredDeliveries: 3 });
    expect(kept?.lastIgnoredDelivery).toContain('shop/redact triggered at');
    // Its token still works: a product's sync reads it from Shopify (the merchant's own token from the sandbox).
    const merchant = await sandboxes.shopify.control('POST', `shops/${shop.domain}/legacy-token`);
    const created = await sandboxes.merchant(
      { ...shop, accessToken: merchant.body.accessToken as string },
      'POST',
      'products.json',
      { product: { title: 'Back' } },
    );
    const productId = String((created.body.product as { id: number }).id);
    const key = (await sandboxes.account()).apiKey;
    expect((await admin('PUT', `/admin/shops/${shop.domain}/catalog-key`, { apiKey: key })).status).toBe(200);
    const update = await harness.deliver({
      shop,
      body: productUpdateBody(productId, new Date().toISOString()),
    });
    expect(update.status).toBe(200);
    await eventually(async () => (await harness.inbox(shop.domain, productId))[0]?.state === 'done', 30_000);
    expect((await entry(shop.domain))?.state).toBe('active');
  });

  it('comes back after shop/redact as a new shop: CONNECTOR_NEW_SHOP_MODE, nothing of its row before', async () => {
    const shop = testShop({ webhookSecrets: [sandboxes.shopify.appSecret] });
    await sandboxes.addShop(shop);
    await install(shop);
    expect(await entry(shop.domain)).toMatchObject({ state: 'active', mode: 'shadow' });
    // The operator switches it live, as they would once its planned writes look right.
    expect((await admin('PUT', `/admin/shops/${shop.domain}/mode`, { mode: 'live' })).status).toBe(200);
    await subscribed(shop);
    await uninstall(shop);

    // Shopify's shop/redact (48 hours after the uninstall; sent now here).
    const redacted = await harness.deliver({
      shop,
      topic: 'shop/redact',
      body: JSON.stringify({ shop_id: 1, shop_domain: shop.domain }),
    });
    expect(redacted.body).toMatchObject({ status: 'processed', topic: 'shop/redact' });
    const gone = await entry(shop.domain);
    expect(gone?.state).toBe('redacted');

    await install(shop);
    expect(await entry(shop.domain)).toMatchObject({ state: 'active', mode: 'shadow' });
    // While redacted, only its domain and state stayed: no scopes, refreshes or installation.
    expect(gone).toMatchObject({ scopes: null, refreshCount: 0, lastRefreshAt: null, installedAt: null });
  });
});
