import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '#lib/local-postgres';
import { LOCAL_STACK_ADMIN_TOKEN, localStackEnvironment } from '../src/index.js';
import { call, sample } from './support/admin-client.js';
import { type ConnectorHarness, eventually, startConnector } from './support/connector-harness.js';
import { type Sandboxes, startSandboxes } from './support/sandboxes.js';
import { productUpdateBody, type TestShop, testShop } from './support/test-shop.js';

const TOKEN_TTL_S = 1;

interface ShopEntry {
  shop: string;
  authKind: string;
  state: string;
  stateReason: string | null;
  tokenExpiresAt: string | null;
  scopes: string[] | null;
  refreshCount: number;
}

// The local stack's connector (the demo shop through the client credentials grant) against the
// Shopify sandbox whose expiring tokens live 1 s: products keep syncing across 15 and more renewals
// with no failure; a refused grant puts the shop in needs_reauth and its jobs wait.
describe('shop authentication with expiring tokens', () => {
  let sandboxes: Sandboxes;
  let harness: ConnectorHarness;
  const logs: string[] = [];
  const demo: TestShop = testShop({
    domain: 'demo.myshopify.com',
    accessToken: 'shpat_sandbox_demo_token',
    webhookSecrets: ['sandbox-app-secret'],
  });

  beforeAll(async () => {
    sandboxes = await startSandboxes({ oauth: { tokenTtlS: TOKEN_TTL_S } });
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
      env: { ...env, CONNECTOR_MEDIA_ENABLED: 'false' },
      logger: ['warn', 'error'],
      logDestination: { write: (line: string) => void logs.push(line) },
    });
  });
  afterAll(async () => {
    await harness?.close();
    await sandboxes?.close();
  });

  const admin = <T>(url: string, path: string) => call<T>(url, 'GET', path, LOCAL_STACK_ADMIN_TOKEN);
  const shopEntry = async (url: string) =>
    (await admin<{ shops: ShopEntry[] }>(url, '/admin/shops')).body.shops.find((s) => s.shop === demo.domain);

  it('syncs every product across token expiries, renewing before expiry, with no failure', async () => {
    await eventually(async () => (await sandboxes.subscriptions(demo)).length >= 3);
    const ids: string[] = [];
    const startedAt = Date.now();
    // A product every second over fifteen token lifetimes.
    while (Date.now() - startedAt < 15 * TOKEN_TTL_S * 1000) {
      const created = await sandboxes.merchant(demo, 'POST', 'products.json', {
        product: {
          title: `Expiry ${ids.length}`,
          vendor: 'Checks',
          product_type: 'Shirts',
          status: 'active',
        },
      });
      ids.push(String((created.body.product as { id: number }).id));
      await new Promise((resolve) => setTimeout(resolve, 1_000));
    }
    for (const id of ids) {
      await eventually(async () => {
        const status = await admin<{ mapRows?: Array<{ skuId: string | null }> }>(
          harness.url,
          `/admin/products/${id}`,
        );
        return status.body.mapRows?.some((row) => row.skuId?.startsWith('SK')) === true;
      }, 30_000);
    }
    const entry = await shopEntry(harness.url);
    expect(entry).toMatchObject({ authKind: 'client-credentials', state: 'active', stateReason: null });
    expect(entry?.scopes).toContain('read_products');
    expect(entry?.tokenExpiresAt).not.toBeNull();
    expect(entry?.refreshCount).toBeGreaterThanOrEqual(15);
    const metrics = (await call(harness.url, 'GET', '/metrics')).text;
    expect(sample(metrics, 'connector_shop_token_refreshes', { shop: demo.domain })).toBeGreaterThanOrEqual(
      15,
    );
    const failures = await admin<{ total: number }>(harness.url, '/admin/failures');
    expect(failures.body.total).toBe(0);
    // At most one 401 per renewal that came late (the token expired on its way).
    const unauthorized = logs.filter((line) => line.includes('answered 401')).length;
    expect(unauthorized).toBeLessThanOrEqual(entry?.refreshCount ?? 0);
    expect(logs.join('\n')).not.toMatch(/shpat_[0-9a-f]{10}/);
  });

  it('puts the shop in needs_reauth when Shopify refuses the credentials: its jobs wait, none fails', async () => {
    const refused = await startConnector({
      shops: [],
      catalogUrl: '',
      catalogApiKey: '',
      env: {
        ...localStackEnvironment({
          catalogUrl: sandboxes.catalog.url,
          shopifyUrl: sandboxes.shopify.url,
          port: await freePort(),
        }),
        CONNECTOR_PUBLIC_URL: undefined,
        CONNECTOR_MEDIA_ENABLED: 'false',
        CONNECTOR_SHOPIFY_CLIENT_SECRET: 'not-the-app-secret',
        CONNECTOR_WEBHOOK_SECRETS: 'sandbox-app-secret',
        CONNECTOR_SHOPIFY_REAUTH_RECHECK_MS: '200',
      },
    });
    try {
      const productId = '7390000099777';
      const delivered = await refused.deliver({
        shop: demo,
        body: productUpdateBody(productId, new Date().toISOString()),
      });
      expect(delivered.status).toBe(200);
      const entry = await eventually(async () => {
        const found = await shopEntry(refused.url);
        return found?.state === 'needs_reauth' && found;
      });
      expect(entry.stateReason).toMatch(/^invalid_client/);
      const metrics = (await call(refused.url, 'GET', '/metrics')).text;
      expect(sample(metrics, 'connector_shop_state', { shop: demo.domain, state: 'needs_reauth' })).toBe(1);
      expect(sample(metrics, 'connector_shop_state', { shop: demo.domain, state: 'active' })).toBe(0);
      const queues = await admin<{ queues: Array<{ name: string; delayed: number; failed: number }> }>(
        refused.url,
        '/admin/queues',
      );
      expect(queues.body.queues.some((queue) => queue.delayed > 0)).toBe(true);
      expect(queues.body.queues.every((queue) => queue.failed === 0)).toBe(true);
      expect((await admin<{ total: number }>(refused.url, '/admin/failures')).body.total).toBe(0);
      expect((await refused.inbox(demo.domain, productId))[0]?.state).not.toBe('done');
    } finally {
      await refused.close();
    }
  });
});
