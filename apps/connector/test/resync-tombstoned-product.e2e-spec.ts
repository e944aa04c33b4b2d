import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call } from './support/admin-client.js';
import { type ConnectorHarness, eventually, startConnector } from './support/connector-harness.js';
import { type Sandboxes, startSandboxes } from './support/sandboxes.js';
import { type TestShop, testShop } from './support/test-shop.js';

interface Run {
  id: string;
  state: string;
  listed: number;
  done: number;
  failed: number;
  remaining: number;
}

// A resync lists a shop's products, then syncs each. A product deleted in Shopify between the
// listing and its sync (its products/delete handled meanwhile: its rows tombstoned) made the
// sync skip it without a word to the run, which then stayed `running` for ever. Played here by a
// products/delete the connector handles while the Shopify sandbox still lists the product.
describe('a resync that lists a product deleted before its sync', () => {
  let sandboxes: Sandboxes;
  let harness: ConnectorHarness;
  let shop: TestShop;
  const products: string[] = [];
  const token = `admin-${randomBytes(16).toString('hex')}`;

  beforeAll(async () => {
    sandboxes = await startSandboxes();
    shop = testShop();
    await sandboxes.addShop(shop);
    const { apiKey } = await sandboxes.account();
    for (const title of ['Kept', 'Deleted meanwhile']) {
      const created = await sandboxes.merchant(shop, 'POST', 'products.json', { product: { title } });
      products.push(String((created.body.product as { id: number }).id));
    }
    harness = await startConnector({
      shops: [shop],
      catalogUrl: sandboxes.catalog.url,
      catalogApiKey: apiKey,
      shopifyFetch: sandboxes.shopifyFetch,
      env: { CONNECTOR_ADMIN_TOKEN: token },
    });
  });
  afterAll(async () => {
    await harness?.close();
    await sandboxes?.close();
  });

  const admin = <T>(method: string, path: string) => call<T>(harness.url, method, path, token);
  const finished = (id: string) =>
    eventually(async () => {
      const run = (await admin<Run>('GET', `/admin/resync/${id}`)).body;
      return run.state === 'done' && run;
    }, 30_000);

  it('counts the product as done and ends', async () => {
    const first = await admin<Run>('POST', `/admin/resync?shop=${shop.domain}`);
    expect(first.status).toBe(200);
    expect(await finished(first.body.id)).toMatchObject({ listed: 2, done: 2, failed: 0 });

    const deleted = products[1] as string;
    const delivery = await harness.deliver({ shop, topic: 'products/delete', body: `{"id":${deleted}}` });
    expect(delivery.status).toBe(200);
    await eventually(async () => {
      const state = await harness.db.query<{ tombstoned_at: Date | null }>(
        `SELECT tombstoned_at FROM "${harness.schema}".product_sync_state WHERE shop = $1 AND product_id = $2`,
        [shop.domain, deleted],
      );
      return state.rows[0]?.tombstoned_at instanceof Date;
    });

    // Shopify still lists it (the listing came before the delete): the run's sync finds it tombstoned.
    const second = await admin<Run>('POST', `/admin/resync?shop=${shop.domain}`);
    expect(second.status).toBe(200);
    expect(await finished(second.body.id)).toMatchObject({ listed: 2, done: 2, failed: 0, remaining: 0 });
    const rows = await harness.db.query<{ product_id: string; state: string }>(
      `SELECT product_id::text AS product_id, state FROM "${harness.schema}".resync_run_products
        WHERE run_id = $1`,
      [second.body.id],
    );
    expect(rows.rows.map((r) => `${r.product_id} ${r.state}`).sort()).toEqual(
      products.map((id) => `${id} done`).sort(),
    );
  });
});
