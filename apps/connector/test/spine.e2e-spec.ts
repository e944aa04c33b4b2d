import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '#lib/local-postgres';
import { localStackEnvironment } from '../src/index.js';
import { type ConnectorHarness, eventually, startConnector } from './support/connector-harness.js';
import { productReads, type Sandboxes, startSandboxes } from './support/sandboxes.js';
import { type TestShop, testShop } from './support/test-shop.js';

// The local stack's connector (localStackEnvironment: demo.myshopify.com against the catalog's
// `demo` key, through both sandboxes), as `npm start` runs it and as the spine check probes it.
describe('the local stack connector', () => {
  let sandboxes: Sandboxes;
  let harness: ConnectorHarness;
  const demo: TestShop = testShop({
    domain: 'demo.myshopify.com',
    accessToken: 'shpat_sandbox_demo_token',
    webhookSecrets: ['sandbox-app-secret'],
  });

  beforeAll(async () => {
    sandboxes = await startSandboxes();
    // The catalog sandbox of the tests has no seed: give this one the seeded `demo` key.
    await sandboxes.catalog.createAccount({ apiKeys: [{ key: 'demo-api-key-0001', permissions: ['*'] }] });
    const env = localStackEnvironment({
      catalogUrl: sandboxes.catalog.url,
      shopifyUrl: sandboxes.shopify.url,
      port: await freePort(),
    });
    harness = await startConnector({ shops: [], catalogUrl: '', catalogApiKey: '', env });
  });
  afterAll(async () => {
    await harness?.close();
    await sandboxes?.close();
  });

  it("answers the spine check's requests: wrong secret 401, signed 200, replay 200", async () => {
    const now = new Date().toISOString().slice(0, 19);
    const body =
      `{"admin_graphql_api_id":"gid:\\/\\/shopify\\/Product\\/7390000099001","body_html":"<p>Spine check<\\/p>",` +
      `"created_at":"${now}-05:00","handle":"spine-check","id":7390000099001,"product_type":"","published_at":null,` +
      `"status":"active","tags":"","title":"Spine check","updated_at":"${now}-05:00","vendor":"Acme","variants":[],` +
      `"options":[],"images":[],"image":null,"media":[],"variant_gids":[]}`;
    const webhookId = randomUUID();
    const eventId = randomUUID();
    const headers = {
      'X-Shopify-Triggered-At': `${now}.123456789Z`,
      'X-Shopify-Product-Id': '7390000099001',
    };
    const post = (secret: string) =>
      harness.deliver({ shop: demo, body, webhookId, eventId, secret, headers });
    expect((await post('wrong-secret')).status).toBe(401);
    expect((await post('sandbox-app-secret')).status).toBe(200);
    expect((await post('sandbox-app-secret')).status).toBe(200);
    expect(await harness.inbox(demo.domain, '7390000099001')).toHaveLength(1);
  });

  it("takes a product created with the Shopify sandbox's curl example to its inbox and job", async () => {
    // The connector subscribes the shop at boot (in the background).
    await eventually(async () => (await sandboxes.subscriptions(demo)).length === 4);
    const created = await sandboxes.merchant(demo, 'POST', 'products.json', {
      product: {
        title: 'Linen Shirt',
        vendor: 'Acme',
        product_type: 'Shirts',
        tags: 'summer, linen',
        options: [{ name: 'Size' }],
        variants: [
          { option1: 'S', sku: 'LIN-S', barcode: '4006381333931', price: '35.00', inventory_quantity: 4 },
          { option1: 'M', sku: 'LIN-M', price: '35.00' },
        ],
        images: [{ src: 'https://example.com/linen.jpg', alt: 'Front' }],
      },
    });
    expect(created.status).toBe(201);
    const productId = String((created.body.product as { id: number }).id);
    // A real store follows products/create with a products/update: both are taken, then settle.
    await sandboxes.shopify.sandbox.idle();
    const rows = await eventually(async () => {
      const all = await harness.inbox(demo.domain, productId);
      return all.length > 0 && all.every((r) => r.state === 'done') && all;
    });
    expect(rows[0]).toMatchObject({ topic: 'products/create', outcome: 'synced' });
    // One canonical read per sync run, and the demo mapping made catalog records of it.
    const runs = await harness.db.query<{ n: string }>(
      `SELECT count(*)::text AS n FROM "${harness.schema}".sync_records WHERE product_id = $1 AND outcome = 'synced'`,
      [productId],
    );
    const reads = productReads(await sandboxes.adminRequests(demo), productId);
    expect(reads).toBeGreaterThanOrEqual(1);
    expect(reads).toBe(Number(runs.rows[0]?.n));
    const mapped = await harness.db.query<{ state: string; sku_id: string | null }>(
      `SELECT state, sku_id FROM "${harness.schema}".sku_map WHERE shop = $1 AND shopify_product_id = $2`,
      [demo.domain, productId],
    );
    expect(mapped.rows).toHaveLength(3);
    expect(mapped.rows.every((r) => r.state === 'live' && r.sku_id !== null)).toBe(true);
  });
});
