import { getQueueToken } from '@nestjs/bullmq';
import type { Queue } from 'bullmq';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '#lib/local-postgres';
import { sandboxFetch } from '#testing/shopify-sandbox';
import { LOCAL_STACK_ADMIN_TOKEN, localStackEnvironment } from '../src/index.js';
import type { SyncProductPayload } from '../src/platform/queues/job-payloads.js';
import { QueueName } from '../src/platform/queues/queue-names.js';
import { call } from './support/admin-client.js';
import { type ConnectorHarness, eventually, startConnector } from './support/connector-harness.js';
import { type Sandboxes, startSandboxes } from './support/sandboxes.js';
import { productUpdateBody, type TestShop, testShop } from './support/test-shop.js';

interface Run {
  id: string;
  state: string;
  listed: number;
  done: number;
  failed: number;
  walkDone: boolean;
}

// An uninstall in the middle of a whole-shop resync (the demo shop through client credentials):
// the connector stops calling Shopify for the shop, its jobs wait without failing, and after a
// new install the run converges with every product synced.
describe('uninstall in the middle of a resync, then a new install', () => {
  let sandboxes: Sandboxes;
  let harness: ConnectorHarness;
  /**
   * Every Admin API request the connector sends (the token endpoint aside: an uninstalled
   * client-credentials shop is asked for a token once per recheck, to notice a new install).
   */
  const shopifyCalls: string[] = [];
  const demo: TestShop = testShop({
    domain: 'demo.myshopify.com',
    accessToken: 'shpat_sandbox_demo_token',
    webhookSecrets: ['sandbox-app-secret'],
  });

  beforeAll(async () => {
    sandboxes = await startSandboxes();
    await sandboxes.catalog.createAccount({ apiKeys: [{ key: 'demo-api-key-0001', permissions: ['*'] }] });
    const toSandbox = sandboxFetch(sandboxes.shopify.url);
    harness = await startConnector({
      shops: [],
      catalogUrl: '',
      catalogApiKey: '',
      shopifyFetch: (input, init) => {
        const url = typeof input === 'string' || input instanceof URL ? String(input) : input.url;
        if (url.includes('/admin/api/')) shopifyCalls.push(url);
        return toSandbox(input, init);
      },
      env: {
        ...localStackEnvironment({
          catalogUrl: sandboxes.catalog.url,
          shopifyUrl: sandboxes.shopify.url,
          port: await freePort(),
        }),
        CONNECTOR_SHOPIFY_ADMIN_ORIGIN: undefined,
        CONNECTOR_MEDIA_ENABLED: 'false',
        // The shop's waiting jobs look again every 2 s: 20 of them cycling faster crowd out the new ones.
        CONNECTOR_SHOPIFY_REAUTH_RECHECK_MS: '2000',
      },
    });
  });
  afterAll(async () => {
    await harness?.close();
    await sandboxes?.close();
  });

  const admin = <T>(method: string, path: string) =>
    call<T>(harness.url, method, path, LOCAL_STACK_ADMIN_TOKEN);
  const run = async (id: string) => (await admin<Run>('GET', `/admin/resync/${id}`)).body;

  // Once skipped: each job of the uninstalled shop took its Admin call's cost from the shared
  // Shopify bucket before finding no token (never given back), so the shop's jobs crawled behind
  // a drained bucket. The client now asks for the token before it reserves.
  it('stops calling Shopify, fails nothing, and converges after the new install', {
    timeout: 180_000,
  }, async () => {
    for (let i = 0; i < 20; i++) {
      const created = await sandboxes.merchant(demo, 'POST', 'products.json', {
        product: { title: `Resync ${i}`, vendor: 'Checks', product_type: 'Shirts', status: 'active' },
      });
      expect(created.status).toBe(201);
    }
    const started = await admin<Run>('POST', `/admin/resync?shop=${demo.domain}`);
    expect(started.status).toBe(200);
    const id = started.body.id;
    await eventually(async () => (await run(id)).done >= 1);

    expect((await sandboxes.shopify.control('POST', `shops/${demo.domain}/uninstall`)).status).toBe(200);
    await eventually(async () => {
      const shops = await admin<{ shops: Array<{ shop: string; state: string }> }>('GET', '/admin/shops');
      return shops.body.shops.find((s) => s.shop === demo.domain)?.state === 'uninstalled';
    }, 10_000);
    const callsWhenUninstalled = shopifyCalls.length;
    // More work for the shop: each of these jobs runs, makes no Shopify call, and waits.
    const productIds = ['7390000100001', '7390000100002', '7390000100003'];
    for (const productId of productIds) {
      await harness.deliver({ shop: demo, body: productUpdateBody(productId, new Date().toISOString()) });
    }
    // Each of their jobs has run at least once (it started, found no token and waits again).
    const queue = harness.connector.app.get<Queue<SyncProductPayload>>(
      getQueueToken(QueueName.SYNC_PRODUCT),
      {
        strict: false,
      },
    );
    await eventually(async () => {
      const jobs = await queue.getJobs(['delayed', 'waiting', 'active']);
      const ran = jobs.filter(
        (job) => productIds.includes(job.data.productId) && job.processedOn !== undefined,
      );
      return new Set(ran.map((job) => job.data.productId)).size === productIds.length;
    }, 40_000);
    expect(shopifyCalls.length).toBe(callsWhenUninstalled);
    expect((await admin<{ total: number }>('GET', '/admin/failures')).body.total).toBe(0);
    expect((await run(id)).state).toBe('running');

    // A new install: the shop gets a token at its next look, and the run ends with every product.
    const installed = await sandboxes.shopify.control('POST', `shops/${demo.domain}/install`);
    expect(installed.status).toBe(200);
    const finished = await eventually(async () => {
      const now = await run(id);
      return now.state === 'done' && now;
    }, 120_000);
    expect(finished).toMatchObject({ failed: 0, walkDone: true });
    expect(finished.done).toBe(finished.listed);
    expect(finished.listed).toBeGreaterThanOrEqual(20);
    expect((await admin<{ total: number }>('GET', '/admin/failures')).body.total).toBe(0);
  });
});
