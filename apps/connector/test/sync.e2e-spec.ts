import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SyncEnqueuer } from '../src/intake/sync-enqueuer.service.js';
import {
  type ConnectorHarness,
  eventually,
  type InboxRow,
  startConnector,
} from './support/connector-harness.js';
import { productReads, type Sandboxes, startSandboxes } from './support/sandboxes.js';
import { SyncProbe } from './support/sync-probe.js';
import { productUpdateBody, type TestShop, testShop } from './support/test-shop.js';

// The product sync job against the Shopify sandbox, real PostgreSQL and the queue.
describe('product sync jobs', () => {
  let sandboxes: Sandboxes;
  let harness: ConnectorHarness;
  let apiKey: string;
  const probe = new SyncProbe();
  const shop = testShop();

  beforeAll(async () => {
    sandboxes = await startSandboxes();
    await sandboxes.addShop(shop);
    apiKey = (await sandboxes.account()).apiKey;
    harness = await startConnector({
      shops: [shop],
      catalogUrl: sandboxes.catalog.url,
      catalogApiKey: apiKey,
      shopifyFetch: sandboxes.shopifyFetch,
      syncHooks: probe.hooks,
      env: { CONNECTOR_INBOX_SWEEP_INTERVAL_MS: '300' },
    });
  });
  afterAll(async () => {
    await harness?.close();
    await sandboxes?.close();
  });

  const createProduct = async (title: string) => {
    const created = await sandboxes.merchant(shop, 'POST', 'products.json', { product: { title } });
    return String((created.body.product as { id: number }).id);
  };
  const reads = async (productId: string) => productReads(await sandboxes.adminRequests(shop), productId);
  const settled = (productId: string, count: number) =>
    eventually(async () => {
      const rows = await harness.inbox(shop.domain, productId);
      return rows.length === count && rows.every((row) => row.state === 'done') && rows;
    });

  it('runs once more for a delivery that arrives while the job runs (after its Shopify read)', async () => {
    const productId = await createProduct('Held');
    const held = probe.hold(productId);
    await harness.deliver({ shop, body: productUpdateBody(productId, new Date().toISOString()) });
    await held.reached;
    const during = await harness.deliver({
      shop,
      body: productUpdateBody(productId, new Date().toISOString()),
    });
    expect(during.body).toMatchObject({ status: 'accepted', queued: true });
    held.release();
    const rows = await settled(productId, 2);
    expect(rows.map((row) => row.outcome)).toEqual(['synced', 'synced']);
    expect(await reads(productId)).toBe(2);
    expect(probe.started.get(productId)).toBe(2);
  });

  it('drops a stale payload without a Shopify query', async () => {
    const productId = await createProduct('Stale');
    await harness.deliver({ shop, body: productUpdateBody(productId, new Date().toISOString()) });
    await settled(productId, 1);
    expect(await reads(productId)).toBe(1);
    await harness.deliver({ shop, body: productUpdateBody(productId, '2020-01-01T00:00:00-05:00') });
    const rows = await settled(productId, 2);
    expect(rows[1]?.outcome).toBe('stale');
    expect(await reads(productId)).toBe(1);
  });

  it('tombstones a deleted product for good: a later update does nothing', async () => {
    const productId = await createProduct('Deleted');
    await harness.deliver({ shop, topic: 'products/delete', body: `{"id":${productId}}` });
    await settled(productId, 1);
    const state = await harness.db.query(
      `SELECT tombstoned_at FROM "${harness.schema}".product_sync_state WHERE shop = $1 AND product_id = $2`,
      [shop.domain, productId],
    );
    expect(state.rows[0]?.tombstoned_at).toBeInstanceOf(Date);
    await harness.deliver({
      shop,
      body: productUpdateBody(productId, new Date(Date.now() + 60_000).toISOString()),
    });
    const rows = await settled(productId, 2);
    expect(rows.map((row: InboxRow) => row.outcome)).toEqual(['deleted', 'tombstoned']);
    expect(await reads(productId)).toBe(0);
  });

  it('sweeps up a delivery stored but never enqueued', async () => {
    const productId = await createProduct('Orphan');
    await harness.db.query(
      `INSERT INTO "${harness.schema}".inbox (shop, webhook_id, topic, product_id, body_bytes, state, received_at)
       VALUES ($1, $2, 'products/update', $3, 0, 'received', now() - interval '10 minutes')`,
      [shop.domain, `orphan-${randomBytes(4).toString('hex')}`, productId],
    );
    const [row] = await settled(productId, 1);
    expect(row?.outcome).toBe('synced');
    expect(row?.enqueued_at).toBeNull();
    expect(await reads(productId)).toBe(1);
  });

  it('never lets two jobs (or two workers) work on one product at once', async () => {
    const productId = await createProduct('Contended');
    const second = await startConnector({
      shops: [shop],
      catalogUrl: sandboxes.catalog.url,
      catalogApiKey: apiKey,
      shopifyFetch: sandboxes.shopifyFetch,
      syncHooks: probe.hooks,
      schema: harness.schema,
    });
    try {
      probe.slowMs = 150;
      const enqueuers = [harness, second].map((h) => h.connector.app.get(SyncEnqueuer));
      await Promise.all(
        Array.from({ length: 6 }, (_, i) =>
          enqueuers[i % 2]?.enqueue({
            shop: shop.domain,
            productId,
            reason: 'replay',
            failureId: `contended-${i}`,
          }),
        ),
      );
      await eventually(async () => probe.started.get(productId) === 6, 30_000);
      expect(probe.maxConcurrent.get(productId)).toBe(1);
      expect(probe.lockBusy.get(productId) ?? 0).toBeGreaterThan(0);
      // The sixth job has started; its Shopify read may still be on its way to the sandbox's log.
      await eventually(async () => (await reads(productId)) >= 6, 10_000);
      expect(await reads(productId)).toBe(6);
    } finally {
      probe.slowMs = 0;
      await second.close();
    }
  });
});

describe('a burst of updates to one product', () => {
  let sandboxes: Sandboxes;
  let harness: ConnectorHarness;
  let shop: TestShop;

  beforeAll(async () => {
    // One delivery per write (the merge window at 0), so coalescing is the connector's doing.
    sandboxes = await startSandboxes({ webhooks: { mergeWindowMs: 0 } });
    // The sandbox signs its deliveries with its app secret.
    shop = testShop({ webhookSecrets: [sandboxes.shopify.appSecret] });
    await sandboxes.addShop(shop);
    const account = await sandboxes.account();
    harness = await startConnector({
      shops: [shop],
      catalogUrl: sandboxes.catalog.url,
      catalogApiKey: account.apiKey,
      shopifyFetch: sandboxes.shopifyFetch,
      // The connector subscribes itself.
      publicUrl: true,
      env: { CONNECTOR_SYNC_DEBOUNCE_MS: '1500' },
    });
  });
  afterAll(async () => {
    await harness?.close();
    await sandboxes?.close();
  });

  it('subscribes the shop to its product webhooks and app/uninstalled, once', async () => {
    const list = async () => (await sandboxes.shopify.control('GET', 'shops')).body;
    expect(await list()).toBeDefined();
    const subscriptions = await eventually(async () => {
      const nodes = await sandboxes.subscriptions(shop);
      return nodes.length === 4 && nodes;
    });
    expect(subscriptions.map((s) => s.topic).sort()).toEqual([
      'APP_UNINSTALLED',
      'PRODUCTS_CREATE',
      'PRODUCTS_DELETE',
      'PRODUCTS_UPDATE',
    ]);
    expect(new Set(subscriptions.map((s) => s.uri))).toEqual(new Set([`${harness.url}/webhooks/shopify`]));
  });

  it('turns 50 merchant updates into at most 2 sync runs, losing none', async () => {
    const created = await sandboxes.merchant(shop, 'POST', 'products.json', {
      product: { title: 'Burst 0' },
    });
    const productId = String((created.body.product as { id: number }).id);
    const rows = async () => harness.inbox(shop.domain, productId);
    // A real store follows products/create with a products/update: both are taken, then settle.
    await sandboxes.shopify.sandbox.idle();
    const first = await eventually(async () => {
      const all = await rows();
      return all.length >= 1 && all.every((row) => row.state === 'done') && all;
    });
    const readsBefore = productReads(await sandboxes.adminRequests(shop), productId);
    for (let batch = 0; batch < 5; batch++) {
      await Promise.all(
        Array.from({ length: 10 }, (_, i) =>
          sandboxes.merchant(shop, 'PUT', `products/${productId}.json`, {
            product: { title: `Burst ${batch * 10 + i + 1}` },
          }),
        ),
      );
    }
    await sandboxes.shopify.sandbox.idle();
    const done = await eventually(async () => {
      const all = await rows();
      return all.length === first.length + 50 && all.every((row) => row.state === 'done') && all;
    }, 40_000);
    expect(done.filter((row) => row.topic === 'products/update')).toHaveLength(
      50 + first.filter((row) => row.topic === 'products/update').length,
    );
    const runs = productReads(await sandboxes.adminRequests(shop), productId) - readsBefore;
    expect(runs).toBeGreaterThanOrEqual(1);
    expect(runs).toBeLessThanOrEqual(2);
  });
});
