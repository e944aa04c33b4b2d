import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call } from './support/admin-client.js';
import { type ConnectorHarness, eventually, startConnector } from './support/connector-harness.js';
import { authorizeInstall, landInstall } from './support/install-browser.js';
import { type Sandboxes, startSandboxes } from './support/sandboxes.js';
import { productUpdateBody, type TestShop, testShop } from './support/test-shop.js';

const ADMIN_TOKEN = `replicas-admin-${randomBytes(8).toString('hex')}`;

// Two replicas (one database, one queue) serve one installed shop whose expiring tokens live 1 s
// (Shopify sandbox): they renew under the session row's lock, each rotating refresh token stored
// before use, so none is ever lost (a lost one would be invalid_grant: needs_reauth).
describe('two replicas, one installed shop, 1 s tokens', () => {
  let sandboxes: Sandboxes;
  let first: ConnectorHarness;
  let second: ConnectorHarness;
  const shop: TestShop = testShop();
  const encryptionKey = randomBytes(32).toString('base64');

  const start = (apiKey: string, schema?: string) =>
    startConnector({
      shops: [shop],
      catalogUrl: sandboxes.catalog.url,
      catalogApiKey: apiKey,
      shopifyFetch: sandboxes.shopifyFetch,
      publicUrl: true,
      schema,
      env: {
        [`CONNECTOR_SHOP_${shop.key}_ACCESS_TOKEN`]: undefined,
        [`CONNECTOR_SHOP_${shop.key}_AUTH`]: 'installed',
        CONNECTOR_SHOPIFY_CLIENT_ID: sandboxes.shopify.clientId,
        CONNECTOR_SHOPIFY_CLIENT_SECRET: sandboxes.shopify.appSecret,
        CONNECTOR_ENCRYPTION_KEYS: encryptionKey,
        CONNECTOR_SHOPIFY_REAUTH_RECHECK_MS: '200',
        CONNECTOR_ADMIN_TOKEN: ADMIN_TOKEN,
        CONNECTOR_MEDIA_ENABLED: 'false',
      },
    });

  beforeAll(async () => {
    sandboxes = await startSandboxes({ oauth: { autoApprove: true, tokenTtlS: 1 } });
    await sandboxes.addShop(shop);
    const { apiKey } = await sandboxes.account();
    first = await start(apiKey);
    second = await start(apiKey, first.schema);
    await sandboxes.shopify.control('PUT', `apps/${sandboxes.shopify.clientId}`, {
      redirectUrls: [`${first.url}/auth/shopify/callback`],
    });
  });
  afterAll(async () => {
    await second?.close();
    await first?.close();
    await sandboxes?.close();
  });

  it('syncs every product from both replicas across renewals, the refresh token never lost', async () => {
    const { callback, cookie } = await authorizeInstall(first, shop.domain, sandboxes.shopifyFetch);
    expect((await landInstall(callback, cookie)).status).toBe(200);

    const ids: string[] = [];
    for (let i = 0; i < 6; i++) {
      const created = await sandboxes.merchant(shop, 'POST', 'products.json', {
        product: { title: `Replica ${i}` },
      });
      ids.push(String((created.body.product as { id: number }).id));
    }
    // Updates to both replicas for eight token lifetimes.
    const startedAt = Date.now();
    for (let round = 0; Date.now() - startedAt < 8_000; round++) {
      const replica = round % 2 === 0 ? first : second;
      const id = ids[round % ids.length] as string;
      expect(
        (await replica.deliver({ shop, body: productUpdateBody(id, new Date().toISOString()) })).status,
      ).toBe(200);
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
    await eventually(async () => {
      const rows = await first.inbox(shop.domain);
      return rows.length > 0 && rows.every((row) => row.state === 'done');
    }, 30_000);

    const shops = await call<{ shops: Array<{ shop: string; state: string; refreshCount: number }> }>(
      second.url,
      'GET',
      '/admin/shops',
      ADMIN_TOKEN,
    );
    const entry = shops.body.shops.find((s) => s.shop === shop.domain);
    expect(entry?.state).toBe('active');
    expect(entry?.refreshCount).toBeGreaterThanOrEqual(6);
    expect((await call<{ total: number }>(first.url, 'GET', '/admin/failures', ADMIN_TOKEN)).body.total).toBe(
      0,
    );
  });
});
