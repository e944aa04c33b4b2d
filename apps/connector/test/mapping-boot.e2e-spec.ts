import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ShopMappingState, ShopMappings } from '../src/index.js';
import { type ConnectorHarness, eventually, startConnector } from './support/connector-harness.js';
import { productReads, type Sandboxes, startSandboxes } from './support/sandboxes.js';
import { startTcpProxy, type TcpProxy } from './support/tcp-proxy.js';
import { productUpdateBody, type TestShop, testShop } from './support/test-shop.js';

const DEMO_MAPPING = fileURLToPath(new URL('../mappings/demo.yaml', import.meta.url));

// Each shop's mapping file is parsed before the connector is built (a broken one stops the boot,
// naming the entry), then checked against the shop's catalog account in the background: the
// connector takes webhooks whatever the catalog does, and a shop's sync waits for its check.
describe('mapping files at boot', () => {
  let sandboxes: Sandboxes;
  let dir: string;
  /** The reference mapping, for a test shop (the file names demo.myshopify.com). */
  let demoForTestShops: string;
  const harnesses: ConnectorHarness[] = [];

  beforeAll(async () => {
    sandboxes = await startSandboxes();
    dir = await mkdtemp(join(tmpdir(), 'connector-mapping-'));
    const demo = await readFile(DEMO_MAPPING, 'utf8');
    demoForTestShops = join(dir, 'demo-any-shop.yaml');
    await writeFile(demoForTestShops, demo.replace(/^shop: .*$/m, ''));
  });
  afterAll(async () => {
    for (const harness of harnesses) await harness.close();
    await sandboxes?.close();
    await rm(dir, { recursive: true, force: true });
  });

  const start = async (
    shop: TestShop,
    catalogUrl: string,
    apiKey: string,
    mappingFile: string,
    recheckMs = '100',
  ) => {
    const harness = await startConnector({
      shops: [shop],
      catalogUrl,
      catalogApiKey: apiKey,
      shopifyFetch: sandboxes.shopifyFetch,
      env: {
        [`CONNECTOR_SHOP_${shop.key}_MAPPING_FILE`]: mappingFile,
        CONNECTOR_MAPPING_RECHECK_MS: recheckMs,
        CONNECTOR_CATALOG_BREAKER_COOLDOWN_MS: '200',
      },
    });
    harnesses.push(harness);
    return harness;
  };
  const mappingState = (harness: ConnectorHarness, shop: TestShop): ShopMappingState =>
    harness.connector.app.get(ShopMappings).state(shop.domain);

  it('refuses to start with a broken mapping file, naming the shop, the file, the entry and its line', async () => {
    const shop = testShop();
    const broken = join(dir, 'broken.yaml');
    await writeFile(broken, 'version: 1\nproduct:\n  title: name\n  vendorr: brand\n');
    const account = await sandboxes.account();
    const attempt = start(shop, sandboxes.catalog.url, account.apiKey, broken);
    await expect(attempt).rejects.toThrow(shop.domain);
    await expect(attempt).rejects.toThrow(`CONNECTOR_SHOP_${shop.key}_MAPPING_FILE`);
    await expect(attempt).rejects.toThrow(
      `mapping ${broken} refused (1 problem):\n  - 4: product.vendorr: unknown key "vendorr"`,
    );
  });

  it('refuses a missing mapping file, and one written for another shop', async () => {
    const shop = testShop();
    const account = await sandboxes.account();
    const missing = join(dir, 'missing.yaml');
    await expect(start(shop, sandboxes.catalog.url, account.apiKey, missing)).rejects.toThrow(
      `CONNECTOR_SHOP_${shop.key}_MAPPING_FILE names a file that cannot be read (ENOENT): ${missing}`,
    );
    await expect(start(shop, sandboxes.catalog.url, account.apiKey, DEMO_MAPPING)).rejects.toThrow(
      `mapping ${DEMO_MAPPING} refused (1 problem):\n  - shop: the file is for demo.myshopify.com, not ${shop.domain}`,
    );
  });

  it('starts with the catalog unreachable, takes webhooks, and syncs only once the check passed', async () => {
    const shop = testShop();
    await sandboxes.addShop(shop);
    const account = await sandboxes.account();
    const catalog = new URL(sandboxes.catalog.url);
    const proxy: TcpProxy = await startTcpProxy(catalog.hostname, Number(catalog.port));
    try {
      proxy.cut();
      const harness = await start(shop, `http://127.0.0.1:${proxy.port}`, account.apiKey, demoForTestShops);
      expect((await fetch(`${harness.url}/health/ready`)).status).toBe(200);
      const productId = '7390000777001';
      const answer = await harness.deliver({
        shop,
        body: productUpdateBody(productId, new Date().toISOString()),
      });
      expect(answer.status).toBe(200);
      expect(answer.body).toMatchObject({ status: 'accepted', queued: true });
      const pending = await eventually(async () => {
        const state = mappingState(harness, shop);
        return state.status === 'pending' && state.checks >= 2 && state;
      });
      expect(pending.lastError).not.toBeNull();
      // The sync waits: the delivery is kept, the product is not even read from Shopify.
      const [row] = await harness.inbox(shop.domain, productId);
      expect(row?.state).toBe('received');
      expect(productReads(await sandboxes.adminRequests(shop), productId)).toBe(0);

      proxy.restore();
      await eventually(async () => mappingState(harness, shop).status === 'ready');
      const done = await eventually(async () => {
        const [after] = await harness.inbox(shop.domain, productId);
        return after?.state === 'done' && after;
      }, 40_000);
      expect(done.outcome).toBe('not_found');
      expect(productReads(await sandboxes.adminRequests(shop), productId)).toBe(1);
    } finally {
      proxy.restore();
      await proxy.close();
    }
  });

  it('checks again on demand, and keeps a checked mapping in force while the catalog is away', async () => {
    const shop = testShop();
    const account = await sandboxes.account();
    const catalog = new URL(sandboxes.catalog.url);
    const proxy: TcpProxy = await startTcpProxy(catalog.hostname, Number(catalog.port));
    try {
      proxy.cut();
      // An hour between scheduled checks: only `recheck` can make it ready within the test.
      const harness = await start(
        shop,
        `http://127.0.0.1:${proxy.port}`,
        account.apiKey,
        demoForTestShops,
        '3600000',
      );
      const mappings = harness.connector.app.get(ShopMappings);
      await eventually(async () => {
        const state = mappings.state(shop.domain);
        return state.status === 'pending' && state.checks === 1;
      });
      expect(mappings.waitFor(shop.domain)).toBe(3_600_000);
      proxy.restore();
      expect(await eventually(async () => (await mappings.recheck(shop.domain)).status === 'ready')).toBe(
        true,
      );
      expect(mappings.mapping(shop.domain)).not.toBeNull();
      proxy.cut();
      expect((await mappings.recheck(shop.domain)).status).toBe('ready');
      expect(mappings.waitFor(shop.domain)).toBeNull();
    } finally {
      proxy.restore();
      await proxy.close();
    }
  });

  it('keeps a shop whose mapping does not fit its account from syncing, naming the entry', async () => {
    const shop = testShop();
    await sandboxes.addShop(shop);
    const account = await sandboxes.account();
    const unfit = join(dir, 'unfit.yaml');
    await writeFile(
      unfit,
      'version: 1\nproduct:\n  title: name\n  vendor: brand\n  handle: noSuchAttribute\n',
    );
    const harness = await start(shop, sandboxes.catalog.url, account.apiKey, unfit);
    const invalid = await eventually(async () => {
      const state = mappingState(harness, shop);
      return state.status === 'invalid' && state;
    });
    expect(invalid.error.message).toContain('product.handle');
    expect(invalid.error.message).toContain('noSuchAttribute');
    const productId = '7390000777002';
    const answer = await harness.deliver({
      shop,
      body: productUpdateBody(productId, new Date().toISOString()),
    });
    expect(answer.body).toMatchObject({ status: 'accepted' });
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    const [row] = await harness.inbox(shop.domain, productId);
    expect(row?.state).toBe('received');
    expect(productReads(await sandboxes.adminRequests(shop), productId)).toBe(0);
    expect(mappingState(harness, shop).status).toBe('invalid');
  });

  it('checks the reference mapping against an account like the seeded demo one: sync may run', async () => {
    const shop = testShop();
    const account = await sandboxes.account();
    const harness = await start(shop, sandboxes.catalog.url, account.apiKey, demoForTestShops);
    const ready = await eventually(async () => {
      const state = mappingState(harness, shop);
      return state.status === 'ready' && state;
    });
    expect(ready.mapping.optionFor('Colour')?.attribute).toBe('color');
    expect(harness.connector.app.get(ShopMappings).waitFor(shop.domain)).toBeNull();
  });
});
