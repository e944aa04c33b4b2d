import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call } from './support/admin-client.js';
import { type ConnectorHarness, eventually, startConnector } from './support/connector-harness.js';
import { type Sandboxes, startSandboxes } from './support/sandboxes.js';
import { productUpdateBody, type TestShop, testShop } from './support/test-shop.js';

const ADMIN_TOKEN = `migrate-${randomBytes(8).toString('hex')}`;

interface ShopEntry {
  shop: string;
  authKind: string;
  state: string;
  tokenExpiresAt: string | null;
  nextStep: string | null;
}

// A static shop whose token is an app's legacy non-expiring offline token (Shopify sandbox)
// is migrated to expiring tokens through the admin API (`auth.migrateToExpiringToken`): the old
// token is revoked, the connector's calls go on with the stored pair, and a second migration is refused.
describe('migrating a static shop to expiring tokens', () => {
  let sandboxes: Sandboxes;
  let harness: ConnectorHarness;
  let merchant: TestShop;
  let served: TestShop;

  const admin = <T>(method: string, path: string) => call<T>(harness.url, method, path, ADMIN_TOKEN);
  const syncs = async (productId: string) => {
    await harness.deliver({ shop: served, body: productUpdateBody(productId, new Date().toISOString()) });
    await eventually(
      async () => (await harness.inbox(served.domain, productId))[0]?.state === 'done',
      30_000,
    );
  };
  const product = async (title: string) => {
    const created = await sandboxes.merchant(merchant, 'POST', 'products.json', { product: { title } });
    return String((created.body.product as { id: number }).id);
  };

  beforeAll(async () => {
    sandboxes = await startSandboxes();
    merchant = testShop();
    await sandboxes.addShop(merchant);
    const legacy = await sandboxes.shopify.control('POST', `shops/${merchant.domain}/legacy-token`, {
      clientId: sandboxes.shopify.clientId,
    });
    expect(legacy.status).toBe(200);
    served = { ...merchant, accessToken: legacy.body.accessToken as string };
    harness = await startConnector({
      shops: [served],
      catalogUrl: sandboxes.catalog.url,
      catalogApiKey: (await sandboxes.account()).apiKey,
      shopifyFetch: sandboxes.shopifyFetch,
      env: {
        CONNECTOR_SHOPIFY_CLIENT_ID: sandboxes.shopify.clientId,
        CONNECTOR_SHOPIFY_CLIENT_SECRET: sandboxes.shopify.appSecret,
        CONNECTOR_ENCRYPTION_KEYS: randomBytes(32).toString('base64'),
        CONNECTOR_ADMIN_TOKEN: ADMIN_TOKEN,
        CONNECTOR_MEDIA_ENABLED: 'false',
      },
    });
  });
  afterAll(async () => {
    await harness?.close();
    await sandboxes?.close();
  });

  it('exchanges the legacy token, revokes it, and syncs on with the expiring pair', async () => {
    await syncs(await product('Before the migration'));

    const migrated = await admin<ShopEntry>('POST', `/admin/shops/${served.domain}/migrate-token`);
    expect(migrated.status, migrated.text).toBe(200);
    expect(migrated.body).toMatchObject({ authKind: 'installed', state: 'active' });
    expect(Date.parse(migrated.body.tokenExpiresAt ?? '')).toBeGreaterThan(Date.now());
    expect(migrated.body.nextStep).toContain(`CONNECTOR_SHOP_${served.key}_AUTH=installed`);
    expect(migrated.text).not.toContain(served.accessToken);

    // Shopify revoked the legacy token for the Admin API.
    const revoked = await fetch(`${sandboxes.shopify.adminUrl}/graphql.json`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'X-Shopify-Access-Token': served.accessToken },
      body: JSON.stringify({ query: '{ shop { name } }' }),
    });
    expect(revoked.status).toBe(401);

    const after = await product('After the migration');
    await syncs(after);
    const reads = (await sandboxes.adminRequests(merchant)).filter(
      (r) =>
        r.operationName === 'CanonicalProduct' &&
        (r.variables as { id?: string } | null)?.id === `gid://shopify/Product/${after}`,
    );
    expect(reads.map((r) => r.outcome)).toContain('ok');
    expect((await admin<{ total: number }>('GET', '/admin/failures')).body.total).toBe(0);

    const again = await admin<{ error: { code: string } }>(
      'POST',
      `/admin/shops/${served.domain}/migrate-token`,
    );
    expect(again.status).toBe(409);
    expect(again.body.error.code).toBe('already_migrated');
    expect((await admin('POST', '/admin/shops/nobody.myshopify.com/migrate-token')).status).toBe(404);
  });
});
