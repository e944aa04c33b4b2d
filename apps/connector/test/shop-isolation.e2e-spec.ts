import { randomBytes } from 'node:crypto';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestAccount } from '#testing/catalog-sandbox';
import type { OverviewDto, ShopOverviewDto } from '../src/operations/overview/overview.dto.js';
import { type Answer, call } from './support/admin-client.js';
import { type ConnectorHarness, eventually, startConnector } from './support/connector-harness.js';
import { type Sandboxes, startSandboxes } from './support/sandboxes.js';
import { productUpdateBody, type TestShop, testShop } from './support/test-shop.js';

const DEMO_MAPPING = join(process.cwd(), 'apps/connector/mappings/demo.yaml');

interface Failure {
  shop: string;
  jobKind: string;
  state: string;
  error: { code: string; message: string };
}

interface QueuesView {
  shops: Array<{ shop: string; paused: boolean; by: string | null }>;
  catalog: Array<{ account: string; breaker: string }>;
}

// Five shops in one connector over HTTP, each with its own catalog account, four of them broken
// mid-run, each its own way: the first's catalog key revoked (the catalog's portal), the
// second's Shopify token revoked (the Shopify sandbox's control API: the app uninstalled and
// installed again, unheard by the connector, kills its token), the third's mapping invalid for
// its account, the fourth uninstalled. Each fails alone and for its own cause: the failures
// inbox, the queue view (pauses, breakers) and the overview name only the faulty shops, each
// with its own cause; the fifth shop's merchant edits reach the catalog throughout and its figures
// stay those of a healthy shop. (admin-ui-states.e2e-spec.ts reads each state rule's wording;
// this reads that one shop's fault touches no other shop.)
describe('isolation: a broken shop fails alone, the others keep syncing', () => {
  let sandboxes: Sandboxes;
  let harness: ConnectorHarness;
  let dir: string;
  const token = `isolation-${randomBytes(12).toString('hex')}`;
  const shops = {
    keyRevoked: testShop(),
    tokenRevoked: testShop(),
    mappingInvalid: testShop(),
    uninstalled: testShop(),
    healthy: testShop(),
  };
  const accounts = new Map<TestShop, TestAccount>();
  let barcodes = 1;
  const accountOf = (shop: TestShop) => accounts.get(shop) as TestAccount;
  const admin = <T = Record<string, unknown>>(method: string, path: string): Promise<Answer<T>> =>
    call<T>(harness.url, method, path, token);
  const overview = async () =>
    new Map(
      (await admin<OverviewDto>('GET', '/admin/overview?limit=500')).body.shops
        .filter((s) => Object.values(shops).some((shop) => shop.domain === s.shop))
        .map((s) => [s.shop, s]),
    );
  const openFailures = async () =>
    (await admin<{ items: Failure[] }>('GET', '/admin/failures?state=open&limit=500')).body.items;

  beforeAll(async () => {
    sandboxes = await startSandboxes();
    for (const shop of Object.values(shops)) {
      await sandboxes.addShop(shop);
      accounts.set(shop, await sandboxes.account());
    }
    dir = await mkdtemp(join(tmpdir(), 'connector-isolation-'));
    const demo = join(dir, 'demo.yaml');
    await writeFile(demo, (await readFile(DEMO_MAPPING, 'utf8')).replace(/^shop: .*$/m, ''));
    const unfit = join(dir, 'unfit.yaml');
    await writeFile(
      unfit,
      'version: 1\nproduct:\n  title: name\n  vendor: brand\n  handle: noSuchAttribute\n',
    );
    harness = await startConnector({
      shops: Object.values(shops),
      catalogUrl: sandboxes.catalog.url,
      catalogApiKey: accountOf(shops.healthy).apiKey,
      shopifyFetch: sandboxes.shopifyFetch,
      env: {
        CONNECTOR_ADMIN_TOKEN: token,
        CONNECTOR_MEDIA_ENABLED: 'false',
        CONNECTOR_SYNC_CONCURRENCY: '4',
        CONNECTOR_MAPPING_RECHECK_MS: '100',
        ...Object.fromEntries(
          Object.values(shops).flatMap((shop) => [
            [`CONNECTOR_SHOP_${shop.key}_CATALOG_API_KEY`, accountOf(shop).apiKey],
            [`CONNECTOR_SHOP_${shop.key}_MAPPING_FILE`, shop === shops.mappingInvalid ? unfit : demo],
          ]),
        ),
      },
    });
  });
  afterAll(async () => {
    await harness?.close();
    await sandboxes?.close();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  /** The merchant's product on the shop, delivered: its id. */
  const merchantProduct = async (shop: TestShop, title: string) => {
    const created = await sandboxes.merchant(shop, 'POST', 'products.json', {
      product: {
        title,
        vendor: 'Acme',
        product_type: 'Shirts',
        options: [{ name: 'Size' }],
        // A barcode: nothing the mapping cannot map (no mapping gap to degrade the shop).
        variants: [
          { option1: 'Small', price: '35.00', barcode: `40063813${String(barcodes++).padStart(5, '0')}` },
        ],
      },
    });
    expect(created.status).toBe(201);
    const productId = String((created.body.product as { id: number }).id);
    await deliverUpdate(shop, productId, title);
    return productId;
  };
  /** The merchant renames the product in Shopify; the update is delivered. */
  const merchantEdit = async (shop: TestShop, productId: string, title: string) => {
    const updated = await sandboxes.merchant(shop, 'PUT', `products/${productId}.json`, {
      product: { title },
    });
    expect(updated.status).toBe(200);
    await deliverUpdate(shop, productId, title);
  };
  const deliverUpdate = async (shop: TestShop, productId: string, title: string) => {
    const body = productUpdateBody(productId, new Date().toISOString(), title);
    expect((await harness.deliver({ shop, body })).status).toBe(200);
  };
  /** The catalog record's name, once the product's sync made it live (undefined until then). */
  const catalogName = async (shop: TestShop, productId: string) => {
    const { rows } = await harness.db.query<{ sku_id: string | null }>(
      `SELECT sku_id FROM "${harness.schema}".sku_map
        WHERE shop = $1 AND shopify_product_id = $2 AND state = 'live' AND shopify_variant_id IS NULL`,
      [shop.domain, productId],
    );
    const skuId = rows[0]?.sku_id;
    if (!skuId) return undefined;
    const record = await accountOf(shop).api.get(`/v1/products/${skuId}`);
    const attributes = record.body.data?.attributes as Array<{ key: string; value: unknown }> | undefined;
    return attributes?.find((a) => a.key === 'name')?.value as string | undefined;
  };

  it("keeps the healthy shop's edits reaching the catalog and names each faulty shop alone, for its own cause", async () => {
    // Before the faults: the healthy shop and the one whose key is revoked next both sync.
    const shirt = await merchantProduct(shops.healthy, 'Linen shirt');
    const before = await merchantProduct(shops.keyRevoked, 'Wool shirt');
    await eventually(async () => (await catalogName(shops.healthy, shirt)) === 'Linen shirt', 30_000);
    await eventually(async () => (await catalogName(shops.keyRevoked, before)) === 'Wool shirt', 30_000);

    // The faults, mid-run.
    await accountOf(shops.keyRevoked).controls.setKeysActive(false);
    for (const step of ['uninstall', 'install']) {
      const answer = await sandboxes.shopify.control('POST', `shops/${shops.tokenRevoked.domain}/${step}`);
      expect(answer.status, step).toBe(200);
    }
    expect(
      (await sandboxes.shopify.control('POST', `shops/${shops.uninstalled.domain}/uninstall`)).status,
    ).toBe(200);
    expect(
      (await harness.deliver({ shop: shops.uninstalled, topic: 'app/uninstalled', body: '{}' })).status,
    ).toBe(200);
    // Work for every broken shop: an edit each (the uninstalled shop's merchant has no app any more).
    await merchantEdit(shops.keyRevoked, before, 'Wool shirt, revised');
    await deliverUpdate(shops.tokenRevoked, '7390000888002', 'Never read');
    await deliverUpdate(shops.mappingInvalid, '7390000888003', 'Never mapped');
    // The revoked key's write is refused: its account's breaker opens.
    await eventually(
      async () => (await overview()).get(shops.keyRevoked.domain)?.breaker !== 'closed',
      30_000,
    );
    // A later edit of that shop waits for the breaker: nothing sent for it (the breaker's probe
    // aside), no new failure; checked once the healthy shop's edits, delivered after it, are in.
    const sentFor = async (shop: TestShop) =>
      (await accountOf(shop).controls.requests()).filter((r) => r.path !== '/v1/taxonomies').length;
    const sentBefore = await sentFor(shops.keyRevoked);
    await merchantEdit(shops.keyRevoked, before, 'Wool shirt, third');

    // The healthy shop's merchant goes on editing: each edit reaches the catalog.
    for (const title of ['Linen shirt, blue', 'Linen shirt, navy']) {
      await merchantEdit(shops.healthy, shirt, title);
      await eventually(async () => (await catalogName(shops.healthy, shirt)) === title, 30_000);
    }
    const another = await merchantProduct(shops.healthy, 'Cotton tee');
    await eventually(async () => (await catalogName(shops.healthy, another)) === 'Cotton tee', 30_000);

    // Every faulty shop reached its state, each for its own causes alone (the overview): the
    // revoked key's refused write (a failure) and its breaker; the refused token's failed sync.
    const expected: Record<string, { state: string; causes: string[] }> = {
      [shops.keyRevoked.domain]: {
        state: 'degraded',
        causes: ['catalog_breaker_open', 'catalog_key_refused'],
      },
      [shops.tokenRevoked.domain]: { state: 'degraded', causes: ['shopify_token_refused'] },
      [shops.mappingInvalid.domain]: { state: 'failing', causes: ['mapping_invalid'] },
      [shops.uninstalled.domain]: { state: 'failing', causes: ['app_uninstalled'] },
      [shops.healthy.domain]: { state: 'healthy', causes: [] },
    };
    const causesOf = (row: ShopOverviewDto | undefined) => row?.causes.map((c) => c.code).sort();
    const states = await eventually(async () => {
      const all = await overview();
      const settled = Object.entries(expected).every(
        ([shop, { state, causes }]) =>
          all.get(shop)?.state === state && causesOf(all.get(shop))?.join() === causes.join(),
      );
      // The healthy shop's last edit reached the catalog; its delivery is marked done just after.
      return settled && all.get(shops.healthy.domain)?.backlog === 0 && all;
    }, 30_000);
    for (const [shop, { state, causes }] of Object.entries(expected)) {
      expect(states.get(shop)?.state, shop).toBe(state);
      expect(causesOf(states.get(shop)), shop).toEqual(causes);
    }
    // Only the shop whose key was revoked has its breaker open (its account's, no one else's).
    for (const [shop, row] of states) {
      expect(row.breaker === 'closed', shop).toBe(shop !== shops.keyRevoked.domain);
    }
    // The healthy shop's figures: those of a healthy shop.
    expect(states.get(shops.healthy.domain)).toMatchObject({
      state: 'healthy',
      reasons: ['everything gets through'],
      cause: null,
      authState: 'active',
      backlog: 0,
      heldByFailures: 0,
      breaker: 'closed',
      openFailures: {},
    });

    // The failures inbox: the two shops whose credentials were refused, each for its own cause.
    // (The revoked key's later work waits for its breaker; the uninstalled shop's and the
    // unmapped shop's wait for their cause to go: no failure.)
    const failures = await openFailures();
    const byShop = (shop: TestShop) =>
      failures.filter((f) => f.shop === shop.domain).map((f) => `${f.jobKind} ${f.error.code}`);
    expect(byShop(shops.keyRevoked)).toEqual(['sync-product unauthorized']);
    expect(byShop(shops.tokenRevoked)).toEqual(['sync-product shopify_unauthorized']);
    for (const shop of [shops.mappingInvalid, shops.uninstalled, shops.healthy])
      expect(byShop(shop), shop.domain).toEqual([]);

    // The queue view: only the revoked key's shop waits on a breaker; only its account's is open.
    const queues = (await admin<QueuesView>('GET', '/admin/queues')).body;
    const paused = queues.shops.filter((s) => s.paused).map((s) => [s.shop, s.by]);
    expect(paused).toEqual([[shops.keyRevoked.domain, 'breaker']]);
    expect(queues.catalog.filter((a) => a.breaker !== 'closed')).toHaveLength(1);

    // The revoked key's later edit waits, unsent.
    expect((await harness.inbox(shops.keyRevoked.domain, before)).at(-1)?.state).toBe('received');
    expect(await sentFor(shops.keyRevoked)).toBe(sentBefore);
  });
});
