import { randomBytes } from 'node:crypto';
import { getQueueToken } from '@nestjs/bullmq';
import type { Queue } from 'bullmq';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
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
}

// A resync lists a product whose webhook sync job is still waiting: the resync's sync is
// deduplicated into that job, which keeps its reason (`webhook`). Once, such a job found its
// deliveries covered or stale, skipped the product without reading it, and the run waited for
// the product forever (seen as the uninstall-and-resync e2e timing out on a loaded machine,
// where the shop's products/create jobs were still waiting when the resync listed them).
describe('a resync whose product sync joins a waiting webhook job', () => {
  let sandboxes: Sandboxes;
  let harness: ConnectorHarness;
  let shop: TestShop;
  let productId: string;
  const token = `admin-${randomBytes(16).toString('hex')}`;

  beforeAll(async () => {
    sandboxes = await startSandboxes();
    shop = testShop();
    await sandboxes.addShop(shop);
    const { apiKey } = await sandboxes.account();
    const created = await sandboxes.merchant(shop, 'POST', 'products.json', {
      product: { title: 'Joined resync' },
    });
    productId = String((created.body.product as { id: number }).id);
    harness = await startConnector({
      shops: [shop],
      catalogUrl: sandboxes.catalog.url,
      catalogApiKey: apiKey,
      shopifyFetch: sandboxes.shopifyFetch,
      // A delivery's job waits 5 s (its debounce, no leading edge): the resync's request finds it waiting.
      env: {
        CONNECTOR_ADMIN_TOKEN: token,
        CONNECTOR_SYNC_DEBOUNCE_MS: '5000',
        CONNECTOR_SYNC_LEADING_EDGE: 'false',
      },
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

  it('reads the product and ends, though the job it joined had only a stale delivery', async () => {
    const first = await admin<Run>('POST', `/admin/resync?shop=${shop.domain}`);
    expect(first.status).toBe(200);
    expect(await finished(first.body.id)).toMatchObject({ listed: 1, done: 1, failed: 0 });

    // A late delivery of an old edit: its job waits out the debounce, then finds it stale.
    const stale = await harness.deliver({ shop, body: productUpdateBody(productId, '2001-01-01T00:00:00Z') });
    expect(stale.status).toBe(200);
    const queue = harness.connector.app.get<Queue<SyncProductPayload>>(
      getQueueToken(QueueName.SYNC_PRODUCT),
      {
        strict: false,
      },
    );
    const waitingJobs = async () =>
      (await queue.getJobs(['delayed', 'waiting', 'prioritized'])).filter(
        (j) => j.data.productId === productId,
      );
    const [webhookJob] = await eventually(async () => {
      const jobs = await waitingJobs();
      return jobs.length === 1 && jobs;
    });
    expect(webhookJob?.data.reason).toBe('webhook');

    const second = await admin<Run>('POST', `/admin/resync?shop=${shop.domain}`);
    expect(second.status).toBe(200);
    await eventually(
      async () => (await admin<Run>('GET', `/admin/resync/${second.body.id}`)).body.listed === 1,
    );
    // The resync's request joined the waiting job (the case this test is about).
    expect((await waitingJobs()).map((j) => [j.id, j.data.reason])).toEqual([[webhookJob?.id, 'webhook']]);

    expect(await finished(second.body.id)).toMatchObject({ listed: 1, done: 1, failed: 0 });
    const records = await harness.db.query<{ outcome: string }>(
      `SELECT outcome FROM "${harness.schema}".sync_records WHERE product_id = $1 AND job_id = $2`,
      [productId, webhookJob?.id],
    );
    expect(records.rows.map((r) => r.outcome)).toEqual(['synced']);
  });
});
