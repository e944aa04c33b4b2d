import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call } from './support/admin-client.js';
import { type ConnectorHarness, eventually, startConnector } from './support/connector-harness.js';
import { authorizeInstall, landInstall } from './support/install-browser.js';
import { type Sandboxes, startSandboxes } from './support/sandboxes.js';
import { productUpdateBody, type TestShop, testShop } from './support/test-shop.js';

const ADMIN_TOKEN = `self-install-${randomBytes(8).toString('hex')}`;

interface ShopEntry {
  shop: string;
  authKind: string;
  source: string;
  state: string;
  catalogKeySet: boolean;
  nextStep: string | null;
  mode: string;
  modePinned: boolean;
  subscriptions: string[] | null;
}

// With CONNECTOR_SHOPIFY_INSTALLS=open and no CONNECTOR_SHOPS, a shop unknown to the connector
// installs the app through OAuth (Shopify sandbox): it joins as a row of `shops` with its
// webhooks, its syncs wait for the catalog key the operator sets through the admin API, and a
// first resync is offered, never started for the operator.
describe('a shop that installs the app itself', () => {
  let sandboxes: Sandboxes;
  let harness: ConnectorHarness;
  let shop: TestShop;
  let catalogApiKey = '';

  const admin = <T>(method: string, path: string, body?: unknown) =>
    call<T>(harness.url, method, path, ADMIN_TOKEN, body);
  const entry = async (domain: string) =>
    (await admin<{ shops: ShopEntry[] }>('GET', '/admin/shops')).body.shops.find((s) => s.shop === domain);

  beforeAll(async () => {
    sandboxes = await startSandboxes({ oauth: { autoApprove: true } });
    shop = testShop({ webhookSecrets: [sandboxes.shopify.appSecret] });
    await sandboxes.addShop(shop);
    catalogApiKey = (await sandboxes.account()).apiKey;
    harness = await startConnector({
      shops: [],
      catalogUrl: sandboxes.catalog.url,
      catalogApiKey: '',
      shopifyFetch: sandboxes.shopifyFetch,
      publicUrl: true,
      env: {
        CONNECTOR_SHOPIFY_INSTALLS: 'open',
        CONNECTOR_SHOPIFY_CLIENT_ID: sandboxes.shopify.clientId,
        CONNECTOR_SHOPIFY_CLIENT_SECRET: sandboxes.shopify.appSecret,
        CONNECTOR_ENCRYPTION_KEYS: randomBytes(32).toString('base64'),
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

  it('joins at its install, waits for its catalog key, and is offered a first resync', async () => {
    expect((await admin<{ shops: ShopEntry[] }>('GET', '/admin/shops')).body.shops).toEqual([]);

    const { callback, cookie } = await authorizeInstall(harness, shop.domain, sandboxes.shopifyFetch);
    const landed = await landInstall(callback, cookie);
    expect(landed.status).toBe(200);
    expect(await landed.text()).toContain(`PUT /admin/shops/${shop.domain}/catalog-key`);
    expect(await entry(shop.domain)).toMatchObject({
      authKind: 'installed',
      source: 'installed',
      state: 'active',
      catalogKeySet: false,
      mode: 'shadow',
      modePinned: false,
    });
    expect((await entry(shop.domain))?.nextStep).toContain('catalog-key');
    const { rows } = await harness.db.query(`SELECT shop, catalog_api_key FROM "${harness.schema}".shops`);
    expect(rows).toEqual([{ shop: shop.domain, catalog_api_key: null }]);

    // Its webhooks at once: the product topics and app/uninstalled.
    await eventually(async () => {
      const nodes = (await sandboxes.subscriptions(shop)).filter(
        (n) => n.uri === `${harness.url}/webhooks/shopify`,
      );
      return nodes.length === 4;
    });

    // A product delivered before the key: stored, its sync waits (paused, no failure).
    const created = await sandboxes.merchant(shop, 'POST', 'products.json', { product: { title: 'Joined' } });
    const productId = String((created.body.product as { id: number }).id);
    const delivered = await harness.deliver({
      shop,
      body: productUpdateBody(productId, new Date().toISOString()),
    });
    expect(delivered.status).toBe(200);
    const paused = await eventually(async () => {
      const status = await admin<{ shops: Array<{ shop: string; paused: boolean; by: string | null }> }>(
        'GET',
        '/admin/queues',
      );
      return status.body.shops.find((s) => s.shop === shop.domain);
    });
    expect(paused).toMatchObject({ paused: true, by: 'catalog-key' });
    expect((await harness.inbox(shop.domain, productId))[0]?.state).not.toBe('done');
    expect((await admin<{ total: number }>('GET', '/admin/failures')).body.total).toBe(0);

    // Bad requests are refused in the connector's shape; nothing is stored.
    const unknown = await admin('PUT', '/admin/shops/nobody.myshopify.com/catalog-key', { apiKey: 'k' });
    expect(unknown.status).toBe(404);
    const blank = await admin<{ error: { code: string } }>('PUT', `/admin/shops/${shop.domain}/catalog-key`, {
      apiKey: 'has spaces',
    });
    expect(blank.status).toBe(400);
    expect(blank.body.error.code).toBe('bad_request');

    // The operator sets the key: the waiting sync runs, a first resync is offered and not started.
    const set = await admin<ShopEntry>('PUT', `/admin/shops/${shop.domain}/catalog-key`, {
      apiKey: catalogApiKey,
    });
    expect(set.status, set.text).toBe(200);
    expect(set.body).toMatchObject({ catalogKeySet: true });
    expect(set.body.nextStep).toContain(`POST /admin/resync?shop=${shop.domain}`);
    expect(JSON.stringify(set.body)).not.toContain(catalogApiKey);
    const stored = await harness.db.query(`SELECT catalog_api_key FROM "${harness.schema}".shops`);
    expect(stored.rows[0].catalog_api_key).toMatch(/^v1:/);
    await eventually(async () => (await harness.inbox(shop.domain, productId))[0]?.state === 'done', 30_000);
    const runs = await harness.db.query(`SELECT count(*)::int AS n FROM "${harness.schema}".resync_runs`);
    expect(runs.rows[0].n).toBe(0);

    const started = await admin<{ id: string }>('POST', `/admin/resync?shop=${shop.domain}`);
    expect(started.status).toBe(200);
    expect((await entry(shop.domain))?.nextStep).toBeNull();
    expect((await admin<{ total: number }>('GET', '/admin/failures')).body.total).toBe(0);
  });

  it('refuses settings for a shop it does not serve, and a body that is not a JSON object', async () => {
    const text = await fetch(`${harness.url}/admin/shops/${shop.domain}/catalog-key`, {
      method: 'PUT',
      headers: { Authorization: `Bearer ${ADMIN_TOKEN}`, 'Content-Type': 'application/json' },
      body: '[1]',
    });
    expect(text.status).toBe(400);
    const missing = await admin('PUT', `/admin/shops/${shop.domain}/mapping`, {
      file: '/no/such/mapping.yaml',
    });
    expect(missing.status).toBe(400);
    expect((await entry(shop.domain))?.catalogKeySet).toBe(true);
  });
});
