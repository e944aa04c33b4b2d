import { createHash, randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { call } from './support/admin-client.js';
import { type ConnectorHarness, eventually, startConnector } from './support/connector-harness.js';
import { authorizeInstall, landInstall } from './support/install-browser.js';
import { type Sandboxes, startSandboxes } from './support/sandboxes.js';
import { productUpdateBody, type TestShop, testShop } from './support/test-shop.js';

const ADMIN_TOKEN = `key-rotation-${randomBytes(8).toString('hex')}`;

interface ShopEntry {
  shop: string;
  state: string;
  catalogKeySet: boolean;
  catalogKeyProblem: string | null;
  secretsUnderOldKeys: number;
  nextStep: string | null;
}
interface ShopList {
  shops: ShopEntry[];
  encryption: { currentKey: string; secretsUnderOldKeys: number; unreadableSecrets: number };
}

const newKey = () => randomBytes(32).toString('base64');
/** The fingerprint a stored value names its key by (`TokenCipher`). */
const keyId = (key: string) =>
  createHash('sha256').update(Buffer.from(key, 'base64')).digest('hex').slice(0, 8);

// Rotating CONNECTOR_ENCRYPTION_KEYS with shops that installed the app themselves (their catalog
// keys in `shops`, their token pairs in `shop_sessions`, all encrypted): every stored secret is
// re-encrypted under the newest key (at boot, and on demand), so the old key can be dropped
// without losing a shop; dropping a key that still encrypts something is refused at boot, naming
// the shops; a shop whose secret is declared lost stays served, shown failing, its lifecycle and
// compliance webhooks processed, and setting its key again repairs it.
describe('rotating the encryption key with self-installed shops', () => {
  let sandboxes: Sandboxes;
  let harness: ConnectorHarness | undefined;
  let db: pg.Pool;
  const schema = `c_${randomBytes(6).toString('hex')}`;
  const [k1, k2, k3] = [newKey(), newKey(), newKey()];
  let alpha: TestShop;
  let beta: TestShop;
  let catalogApiKey = '';

  const start = (keys: string[], env: Record<string, string> = {}) =>
    startConnector({
      shops: [],
      schema,
      catalogUrl: sandboxes.catalog.url,
      catalogApiKey: '',
      shopifyFetch: sandboxes.shopifyFetch,
      publicUrl: true,
      env: {
        CONNECTOR_SHOPIFY_INSTALLS: 'open',
        CONNECTOR_SHOPIFY_CLIENT_ID: sandboxes.shopify.clientId,
        CONNECTOR_SHOPIFY_CLIENT_SECRET: sandboxes.shopify.appSecret,
        CONNECTOR_ENCRYPTION_KEYS: keys.join(','),
        CONNECTOR_ADMIN_TOKEN: ADMIN_TOKEN,
        CONNECTOR_MEDIA_ENABLED: 'false',
        ...env,
      },
    });
  const restart = async (keys: string[], env: Record<string, string> = {}) => {
    await harness?.close();
    harness = undefined;
    harness = await start(keys, env);
    return harness;
  };
  const served = (): ConnectorHarness => {
    if (harness === undefined) throw new Error('no connector running');
    return harness;
  };
  const admin = <T>(method: string, path: string, body?: unknown) =>
    call<T>(served().url, method, path, ADMIN_TOKEN, body);
  const list = async () => (await admin<ShopList>('GET', '/admin/shops')).body;
  const entry = async (domain: string) => (await list()).shops.find((s) => s.shop === domain);
  const install = async (shop: TestShop) => {
    await sandboxes.shopify.control('PUT', `apps/${sandboxes.shopify.clientId}`, {
      redirectUrls: [`${served().url}/auth/shopify/callback`],
    });
    const { callback, cookie } = await authorizeInstall(served(), shop.domain, sandboxes.shopifyFetch);
    expect((await landInstall(callback, cookie)).status).toBe(200);
  };
  const syncs = async (shop: TestShop, title: string) => {
    const created = await sandboxes.merchant(shop, 'POST', 'products.json', { product: { title } });
    const productId = String((created.body.product as { id: number }).id);
    const delivered = await served().deliver({
      shop,
      body: productUpdateBody(productId, new Date().toISOString()),
    });
    expect(delivered.status).toBe(200);
    await eventually(async () => (await served().inbox(shop.domain, productId))[0]?.state === 'done', 30_000);
  };
  /** The key id each stored secret names, every table. */
  const storedKeyIds = async () => {
    const { rows } = await db.query<{ value: string }>(
      `SELECT catalog_api_key AS value FROM "${schema}".shops WHERE catalog_api_key IS NOT NULL
       UNION ALL SELECT access_token FROM "${schema}".shop_sessions WHERE access_token IS NOT NULL
       UNION ALL SELECT refresh_token FROM "${schema}".shop_sessions WHERE refresh_token IS NOT NULL`,
    );
    return rows.map((row) => row.value.split(':')[1]);
  };

  beforeAll(async () => {
    sandboxes = await startSandboxes({ oauth: { autoApprove: true } });
    db = new pg.Pool({ connectionString: inject('databaseUrl'), max: 2 });
    alpha = testShop({ webhookSecrets: [sandboxes.shopify.appSecret] });
    beta = testShop({ webhookSecrets: [sandboxes.shopify.appSecret] });
    await sandboxes.addShop(alpha);
    await sandboxes.addShop(beta);
    catalogApiKey = (await sandboxes.account()).apiKey;
    await restart([k1]);
    for (const shop of [alpha, beta]) {
      await install(shop);
      const set = await admin('PUT', `/admin/shops/${shop.domain}/catalog-key`, { apiKey: catalogApiKey });
      expect(set.status, set.text).toBe(200);
    }
    await syncs(alpha, 'Before any rotation');
  });
  afterAll(async () => {
    await harness?.close();
    await db?.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`).catch(() => undefined);
    await db?.query(`DROP SCHEMA IF EXISTS "${schema}_q" CASCADE`).catch(() => undefined);
    await db?.end();
    await sandboxes?.close();
  });

  it('re-encrypts every stored secret under the new key, so the old one can be dropped', async () => {
    expect(new Set(await storedKeyIds())).toEqual(new Set([keyId(k1)]));
    const secrets = (await storedKeyIds()).length;
    expect(secrets).toBeGreaterThanOrEqual(4);

    // The new key first, the old one after it: the boot re-encrypts what the old key holds.
    await restart([k2, k1]);
    const done = await eventually(async () => {
      const answer = await list();
      return answer.encryption.secretsUnderOldKeys === 0 && answer;
    });
    expect(done.encryption).toEqual({ currentKey: keyId(k2), secretsUnderOldKeys: 0, unreadableSecrets: 0 });
    expect(done.shops.map((s) => s.secretsUnderOldKeys)).toEqual([0, 0]);
    expect(new Set(await storedKeyIds())).toEqual(new Set([keyId(k2)]));
    // The boot's pass may still be counting what it left (its census after the last secret moved):
    // an operator's pass asked meanwhile answers with that pass (one at a time per process), its
    // re-encrypted secrets included. Once it has answered, a pass of its own finds nothing to move.
    const reencrypt = () =>
      admin<{ reencrypted: number; secretsUnderOldKeys: number }>('POST', '/admin/shops/reencrypt');
    const first = await reencrypt();
    expect(first.status, first.text).toBe(200);
    expect(first.body).toMatchObject({ currentKey: keyId(k2), secretsUnderOldKeys: 0 });
    const again = await reencrypt();
    expect(again.status, again.text).toBe(200);
    expect(again.body).toMatchObject({ currentKey: keyId(k2), reencrypted: 0, secretsUnderOldKeys: 0 });

    // The old key dropped: nothing is lost, the shops sync on.
    await restart([k2]);
    for (const shop of [alpha, beta]) {
      expect(await entry(shop.domain)).toMatchObject({
        state: 'active',
        catalogKeySet: true,
        catalogKeyProblem: null,
      });
    }
    await syncs(alpha, 'After the rotation');
  });

  it('refuses to boot without a key that still encrypts secrets, naming the shops it would strand', async () => {
    await harness?.close();
    harness = undefined;
    const refused = start([k3]);
    await expect(refused).rejects.toThrow(alpha.domain);
    await expect(refused).rejects.toThrow(beta.domain);
    await expect(refused).rejects.toThrow(keyId(k2));
    await expect(refused).rejects.toThrow('CONNECTOR_ENCRYPTION_LOST_KEYS');
    expect(new Set(await storedKeyIds())).toEqual(new Set([keyId(k2)]));
  });

  it('keeps serving shops whose secrets were under a key declared lost: failing, webhooks processed, repairable', async () => {
    await restart([k3], { CONNECTOR_ENCRYPTION_LOST_KEYS: keyId(k2) });
    const shops = await list();
    expect(shops.encryption).toMatchObject({ currentKey: keyId(k3), unreadableSecrets: expect.any(Number) });
    expect(shops.encryption.unreadableSecrets).toBeGreaterThanOrEqual(4);
    for (const shop of [alpha, beta]) {
      const found = shops.shops.find((s) => s.shop === shop.domain);
      expect(found).toMatchObject({ catalogKeySet: false });
      expect(found?.catalogKeyProblem).toContain(keyId(k2));
      expect(found?.nextStep).toContain(`PUT /admin/shops/${shop.domain}/catalog-key`);
    }
    const overview = await admin<{ shops: Array<{ shop: string; state: string; reasons: string[] }> }>(
      'GET',
      '/admin/overview',
    );
    const alphaHealth = overview.body.shops.find((s) => s.shop === alpha.domain);
    expect(alphaHealth?.state).toBe('failing');
    expect(alphaHealth?.reasons.join('; ')).toContain('catalog API key cannot be read');

    // Its product deliveries are still taken into the inbox.
    const product = await served().deliver({
      shop: alpha,
      body: productUpdateBody('4242', new Date().toISOString()),
    });
    expect(product.status).toBe(200);
    const paused = await eventually(async () => {
      const queues = await admin<{
        shops: Array<{ shop: string; by: string | null; reason: string | null }>;
      }>('GET', '/admin/queues');
      return queues.body.shops.find((s) => s.shop === alpha.domain);
    });
    expect(paused).toMatchObject({ by: 'catalog-key' });
    expect(paused.reason).toContain('its catalog API key cannot be read');

    // Its lifecycle and compliance webhooks are processed.
    const body = JSON.stringify({ shop_id: 1, shop_domain: beta.domain });
    for (const topic of ['customers/data_request', 'app/uninstalled']) {
      const answer = await served().deliver({ shop: beta, topic, body });
      expect(answer.status, JSON.stringify(answer.body)).toBe(200);
      expect(answer.body).toMatchObject({ status: 'processed', topic });
    }
    expect((await entry(beta.domain))?.state).toBe('uninstalled');
    const redacted = await served().deliver({ shop: beta, topic: 'shop/redact', body });
    expect(redacted.body).toMatchObject({ status: 'processed', topic: 'shop/redact' });
    expect((await entry(beta.domain))?.state).toBe('redacted');

    // Setting its catalog key again repairs it; a new install gives it tokens again: it syncs.
    const set = await admin<ShopEntry>('PUT', `/admin/shops/${alpha.domain}/catalog-key`, {
      apiKey: catalogApiKey,
    });
    expect(set.status, set.text).toBe(200);
    expect(set.body).toMatchObject({ catalogKeySet: true, catalogKeyProblem: null });
    await install(alpha);
    await syncs(alpha, 'After the repair');
    const healed = await admin<{ shops: Array<{ shop: string; reasons: string[] }> }>(
      'GET',
      '/admin/overview',
    );
    expect(healed.body.shops.find((s) => s.shop === alpha.domain)?.reasons.join('; ')).not.toContain(
      'catalog API key',
    );
  });
});
