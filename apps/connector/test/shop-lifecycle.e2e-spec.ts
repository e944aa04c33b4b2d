import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '#lib/local-postgres';
import { LOCAL_STACK_ADMIN_TOKEN, localStackEnvironment } from '../src/index.js';
import { ShopDataRegistry } from '../src/platform/reporting/shop-data-registry.service.js';
import { call, sample } from './support/admin-client.js';
import { type ConnectorHarness, eventually, startConnector } from './support/connector-harness.js';
import { type Sandboxes, startSandboxes } from './support/sandboxes.js';
import { productUpdateBody, type TestShop, testShop } from './support/test-shop.js';

interface ShopEntry {
  shop: string;
  state: string;
}

// The app's lifecycle against the Shopify sandbox (the demo shop through client credentials):
// an uninstall stops the shop's work with no failure and keeps its sku map, a new install
// resumes it; the compliance topics; shop/redact purges every table keyed by the shop.
describe("the shop's lifecycle: uninstall, install, compliance webhooks, redact", () => {
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
        CONNECTOR_SHOPIFY_SUBSCRIPTION_CHECK_MS: '300',
      },
    });
  });
  afterAll(async () => {
    await harness?.close();
    await sandboxes?.close();
  });

  const admin = <T>(path: string) => call<T>(harness.url, 'GET', path, LOCAL_STACK_ADMIN_TOKEN);
  const state = async () =>
    (await admin<{ shops: ShopEntry[] }>('/admin/shops')).body.shops.find((s) => s.shop === demo.domain)
      ?.state;
  const skuIdOf = async (id: string) => {
    const status = await admin<{ mapRows?: Array<{ skuId: string | null }> }>(`/admin/products/${id}`);
    return status.body.mapRows?.find((row) => row.skuId !== null)?.skuId ?? undefined;
  };
  let productId = '';

  it('app/uninstalled: the shop waits with no failure and keeps its sku map; a new install resumes it', async () => {
    await eventually(async () => (await sandboxes.subscriptions(demo)).length === 4);
    const created = await sandboxes.merchant(demo, 'POST', 'products.json', {
      product: { title: 'Lifecycle', vendor: 'Checks', product_type: 'Shirts', status: 'active' },
    });
    productId = String((created.body.product as { id: number }).id);
    const skuId = await eventually(() => skuIdOf(productId), 30_000);

    // The merchant uninstalls: Shopify revokes the tokens and sends app/uninstalled.
    expect((await sandboxes.shopify.control('POST', `shops/${demo.domain}/uninstall`)).status).toBeLessThan(
      300,
    );
    await eventually(async () => (await state()) === 'uninstalled');
    const update = await harness.deliver({
      shop: demo,
      body: productUpdateBody(productId, new Date().toISOString()),
    });
    expect(update.status).toBe(200);
    await eventually(async () => {
      const queues = await admin<{ queues: Array<{ delayed: number }> }>('/admin/queues');
      return queues.body.queues.some((queue) => queue.delayed > 0);
    });
    expect((await admin<{ total: number }>('/admin/failures')).body.total).toBe(0);
    expect(await skuIdOf(productId)).toBe(skuId);

    // A new install: the next look at the shop gets a token again and the waiting job runs.
    const installed = await sandboxes.shopify.control('POST', `shops/${demo.domain}/install`);
    expect(installed.status).toBeLessThan(300);
    demo.accessToken = installed.body.accessToken as string;
    await eventually(async () => (await state()) === 'active', 20_000);
    await eventually(async () => {
      const rows = await harness.inbox(demo.domain, productId);
      return rows.length > 0 && rows.every((row) => row.state === 'done');
    }, 20_000);
    expect((await admin<{ total: number }>('/admin/failures')).body.total).toBe(0);

    // The uninstall deleted the subscriptions: the check the new install asks for creates them again (never the compliance topics).
    const topics = await eventually(async () => {
      const nodes = await sandboxes.subscriptions(demo);
      return nodes.length === 4 && nodes.map((n) => n.topic).sort();
    }, 20_000);
    expect(topics).toEqual(['APP_UNINSTALLED', 'PRODUCTS_CREATE', 'PRODUCTS_DELETE', 'PRODUCTS_UPDATE']);
    const entry = await eventually(async () => {
      const shops = await admin<{
        shops: Array<ShopEntry & { subscriptions: string[] | null; subscriptionsRecreated: number }>;
      }>('/admin/shops');
      const found = shops.body.shops.find((s) => s.shop === demo.domain);
      // Recreated by the check; the shop's row says so.
      return (
        found !== undefined && found.subscriptionsRecreated > 0 && found.subscriptions?.length === 4 && found
      );
    });
    expect(entry.subscriptions).toEqual(topics);
    const metrics = (await call(harness.url, 'GET', '/metrics')).text;
    expect(sample(metrics, 'connector_webhook_subscriptions_recreated', { shop: demo.domain })).toBe(
      entry.subscriptionsRecreated,
    );
  });

  it('customers/data_request and customers/redact: 200, nothing stored; a bad signature is refused', async () => {
    for (const topic of ['customers/data_request', 'customers/redact']) {
      const body = JSON.stringify({ shop_domain: demo.domain, customer: { id: 1, email: 'a@example.com' } });
      const answer = await harness.deliver({ shop: demo, topic, body });
      expect(answer.status).toBe(200);
      expect(answer.body).toMatchObject({ status: 'processed', topic });
      expect((await harness.deliver({ shop: demo, topic, body, secret: 'wrong' })).status).toBe(401);
    }
    const { rows } = await harness.db.query(
      `SELECT count(*)::int AS n FROM "${harness.schema}".inbox WHERE topic LIKE 'customers/%'`,
    );
    expect(rows[0].n).toBe(0);
  });

  it('shop/redact purges every table keyed by the shop; the shop shows redacted', async () => {
    // Shopify sends it 48 hours after an uninstall (one for the installation before the current one is ignored).
    expect((await sandboxes.shopify.control('POST', `shops/${demo.domain}/uninstall`)).status).toBe(200);
    await eventually(async () => (await state()) === 'uninstalled');
    const body = JSON.stringify({ shop_id: 1, shop_domain: demo.domain });
    expect((await harness.deliver({ shop: demo, topic: 'shop/redact', body, secret: 'wrong' })).status).toBe(
      401,
    );
    expect((await harness.inbox(demo.domain)).length).toBeGreaterThan(0);
    // A poll's counts name each shop it covered (a JSON key, not a shop column).
    await harness.db.query(
      `INSERT INTO "${harness.schema}".enrichment_poll (id, trigger, requested_at, counts)
        VALUES ('redact-probe', 'admin', now(), $1)`,
      [{ found: 2, shops: { [demo.domain]: { found: 1 }, 'other.myshopify.com': { found: 1 } } }],
    );
    const answer = await harness.deliver({ shop: demo, topic: 'shop/redact', body });
    expect(answer.body).toMatchObject({ status: 'processed', topic: 'shop/redact' });
    expect(await state()).toBe('redacted');

    // Every table with a shop column is registered (or the lifecycle's own), and holds nothing of the shop.
    const { rows: columns } = await harness.db.query<{ table_name: string; column_name: string }>(
      `SELECT table_name, column_name FROM information_schema.columns
        WHERE table_schema = $1 AND (column_name = 'shop' OR (table_name = 'sync_pauses' AND column_name = 'scope'))`,
      [harness.schema],
    );
    const registered = [
      ...harness.connector.app.get(ShopDataRegistry).tables(),
      'failures',
      'shop_sessions',
      'shops',
    ];
    expect(columns.map((c) => c.table_name).sort()).toEqual([...registered].sort());
    for (const { table_name: table, column_name: column } of columns) {
      if (table === 'shop_sessions' || table === 'shops') continue;
      const { rows } = await harness.db.query(
        `SELECT count(*)::int AS n FROM "${harness.schema}"."${table}" WHERE ${column} = $1`,
        [demo.domain],
      );
      expect({ table, rows: rows[0].n }).toEqual({ table, rows: 0 });
    }
    const { rows: polls } = await harness.db.query(
      `SELECT counts FROM "${harness.schema}".enrichment_poll WHERE id = 'redact-probe'`,
    );
    expect(polls[0].counts).toEqual({ found: 2, shops: { 'other.myshopify.com': { found: 1 } } });
    const { rows: session } = await harness.db.query(
      `SELECT state, access_token FROM "${harness.schema}".shop_sessions WHERE shop = $1`,
      [demo.domain],
    );
    expect(session[0]).toEqual({ state: 'redacted', access_token: null });
  });
});
