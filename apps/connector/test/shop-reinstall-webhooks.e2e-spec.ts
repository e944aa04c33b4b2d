import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '#lib/local-postgres';
import { LOCAL_STACK_ADMIN_TOKEN, localStackEnvironment } from '../src/index.js';
import { call } from './support/admin-client.js';
import { type ConnectorHarness, eventually, startConnector } from './support/connector-harness.js';
import { type Sandboxes, startSandboxes } from './support/sandboxes.js';
import { productUpdateBody, type TestShop, testShop } from './support/test-shop.js';

// A client-credentials shop (the Shopify sandbox's demo shop) uninstalled and installed again:
// the uninstall deleted its subscriptions, and the shop gets them back as soon as it is active
// again, not at the scheduled check (an hour here).
describe('a client-credentials shop installed again gets its webhooks at once', () => {
  let sandboxes: Sandboxes;
  let harness: ConnectorHarness;
  const demo: TestShop = testShop({
    domain: 'demo.myshopify.com',
    accessToken: 'shpat_sandbox_demo_token',
    webhookSecrets: ['sandbox-app-secret'],
  });

  beforeAll(async () => {
    sandboxes = await startSandboxes();
    await sandboxes.catalog.createAccount({ apiKeys: [{ key: 'demo-api-key-0001', permissions: ['*'] }] });
    const env = localStackEnvironment({
      catalogUrl: sandboxes.catalog.url,
      shopifyUrl: sandboxes.shopify.url,
      port: await freePort(),
    });
    harness = await startConnector({
      shops: [],
      catalogUrl: '',
      catalogApiKey: '',
      env: {
        ...env,
        CONNECTOR_MEDIA_ENABLED: 'false',
        CONNECTOR_SHOPIFY_REAUTH_RECHECK_MS: '300',
        CONNECTOR_SHOPIFY_SUBSCRIPTION_CHECK_MS: '3600000',
      },
    });
  });
  afterAll(async () => {
    await harness?.close();
    await sandboxes?.close();
  });

  const admin = <T>(path: string) => call<T>(harness.url, 'GET', path, LOCAL_STACK_ADMIN_TOKEN);
  const state = async () =>
    (await admin<{ shops: Array<{ shop: string; state: string }> }>('/admin/shops')).body.shops.find(
      (s) => s.shop === demo.domain,
    )?.state;

  it('POST /sandbox/shops/demo.myshopify.com/uninstall then /install: subscribed again within seconds', async () => {
    await eventually(async () => (await sandboxes.subscriptions(demo)).length === 4);
    const created = await sandboxes.merchant(demo, 'POST', 'products.json', {
      product: { title: 'Reinstalled', vendor: 'Checks', product_type: 'Shirts', status: 'active' },
    });
    const productId = String((created.body.product as { id: number }).id);

    expect((await sandboxes.shopify.control('POST', `shops/${demo.domain}/uninstall`)).status).toBe(200);
    await eventually(async () => (await state()) === 'uninstalled');
    // A change made meanwhile: its sync waits for the shop.
    const update = await harness.deliver({
      shop: demo,
      body: productUpdateBody(productId, new Date().toISOString()),
    });
    expect(update.status).toBe(200);

    const installed = await sandboxes.shopify.control('POST', `shops/${demo.domain}/install`);
    expect(installed.status).toBe(200);
    demo.accessToken = installed.body.accessToken as string;
    await eventually(async () => (await state()) === 'active', 20_000);
    // Far sooner than the scheduled check: the product topics and app/uninstalled again.
    const topics = await eventually(async () => {
      const nodes = await sandboxes.subscriptions(demo);
      return nodes.length === 4 && nodes.map((n) => n.topic).sort();
    }, 20_000);
    expect(topics).toEqual(['APP_UNINSTALLED', 'PRODUCTS_CREATE', 'PRODUCTS_DELETE', 'PRODUCTS_UPDATE']);
    await eventually(async () => (await harness.inbox(demo.domain, productId))[0]?.state === 'done', 30_000);
  });
});
