import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call } from './support/admin-client.js';
import { type ConnectorHarness, eventually, startConnector } from './support/connector-harness.js';
import { type Sandboxes, startSandboxes } from './support/sandboxes.js';
import { type TestShop, testShop } from './support/test-shop.js';

const COUNT = 30;
const IMAGES = 100;

// Shopify's cost bucket of the standard plan's size (2,000 points; refilled at 1,000 a second
// instead of 100, to keep the test short): four sync workers reading products of 100 images (962 points requested, a few
// hundred paid each) drain the bucket below a read's requested cost; they share the shop's pacer,
// which counts the reads sent since Shopify's last report, so none is answered THROTTLED.
describe("the shop's cost bucket, shared by the replicas, under concurrent reads", () => {
  let sandboxes: Sandboxes;
  let shop: TestShop;
  let harness: ConnectorHarness;
  let replica: ConnectorHarness;
  const runs = { first: 0, replica: 0 };
  const token = `admin-${randomBytes(16).toString('hex')}`;

  beforeAll(async () => {
    sandboxes = await startSandboxes({ cost: { restoreRate: 1_000 } });
    shop = testShop();
    await sandboxes.addShop(shop);
    const apiKey = (await sandboxes.account()).apiKey;
    await Promise.all(
      Array.from({ length: COUNT }, (_, i) =>
        sandboxes.merchant(shop, 'POST', 'products.json', {
          product: {
            title: `Paced ${i}`,
            variants: [{ sku: `PACED-${i}`, price: '5.00' }],
            images: Array.from({ length: IMAGES }, (_, k) => ({
              src: `https://example.com/paced/${i}/${k}.png`,
            })),
          },
        }),
      ),
    );
    const options = {
      shops: [shop],
      catalogUrl: sandboxes.catalog.url,
      catalogApiKey: apiKey,
      shopifyFetch: sandboxes.shopifyFetch,
      env: {
        CONNECTOR_ADMIN_TOKEN: token,
        // Pages, so every sync reads its product from the Admin API.
        CONNECTOR_BULK_THRESHOLD: '249',
        CONNECTOR_SYNC_CONCURRENCY: '4',
        CONNECTOR_MEDIA_ENABLED: 'false',
        CONNECTOR_CATALOG_RATE_PER_SECOND: '1000',
        CONNECTOR_CATALOG_RATE_BURST: '50',
      },
    };
    harness = await startConnector({ ...options, syncHooks: { runStarted: () => void runs.first++ } });
    replica = await startConnector({
      ...options,
      schema: harness.schema,
      syncHooks: { runStarted: () => void runs.replica++ },
    });
  }, 60_000);
  afterAll(async () => {
    await replica?.close();
    await harness?.close();
    await sandboxes?.close();
  });

  it('reads every product once, with no THROTTLED answer', async () => {
    const started = await call<{ id: string }>(
      harness.url,
      'POST',
      `/admin/resync?shop=${shop.domain}`,
      token,
    );
    expect(started.status, started.text).toBe(200);
    await eventually(async () => {
      const run = await call<{ state: string; done: number }>(
        harness.url,
        'GET',
        `/admin/resync/${started.body.id}`,
        token,
      );
      return run.body.state === 'done' && run.body.done === COUNT;
    }, 120_000);
    const requests = await sandboxes.adminRequests(shop);
    expect(requests.filter((r) => r.operationName === 'CanonicalProduct' && r.outcome === 'ok')).toHaveLength(
      COUNT,
    );
    expect(requests.filter((r) => r.outcome === 'throttled')).toEqual([]);
    // Both replicas synced.
    expect(runs.first).toBeGreaterThan(0);
    expect(runs.replica).toBeGreaterThan(0);
  });
});
