import { randomBytes } from 'node:crypto';
import { getQueueToken } from '@nestjs/bullmq';
import type { Queue } from 'bullmq';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SyncProductPayload } from '../src/platform/queues/job-payloads.js';
import { QueueName } from '../src/platform/queues/queue-names.js';
import type { SyncSubject } from '../src/product-sync/apply/sync-subject.js';
import { call } from './support/admin-client.js';
import { type ConnectorHarness, eventually, startConnector } from './support/connector-harness.js';
import { type Sandboxes, startSandboxes } from './support/sandboxes.js';
import { productUpdateBody, type TestShop, testShop } from './support/test-shop.js';

interface Run {
  id: string;
  state: string;
  walkDone: boolean;
  listed: number;
}

const PRODUCTS = 100;
const EDITED = 60;

// Fairness across shops through the whole connector (docs/sync.md, "Fairness across shops"):
// shop A resyncs 100 products and its merchant edits 60 of them (a storm through the webhook
// intake) while one sync worker is busy; then shop B's merchant saves one product. The worker
// then takes the backlog in the queue's order, which is what is asserted: B's edit runs after at
// most one of A's jobs, and A's edits run before the rest of A's resync.
describe('a shop with a backlog and another shop with one edit', () => {
  let sandboxes: Sandboxes;
  let harness: ConnectorHarness;
  let a: TestShop;
  let b: TestShop;
  let aProducts: string[];
  let bProduct: string;
  const token = `admin-${randomBytes(16).toString('hex')}`;
  /** The runs in the order they started (one worker: one at a time). */
  const started: SyncSubject[] = [];
  /** Holds the first run, so the backlog builds behind the only worker. */
  let release: () => void = () => undefined;
  const held = new Promise<void>((resolve) => {
    release = resolve;
  });

  beforeAll(async () => {
    sandboxes = await startSandboxes();
    a = testShop();
    b = testShop();
    await sandboxes.addShop(a);
    await sandboxes.addShop(b);
    const { apiKey } = await sandboxes.account();
    const create = async (shop: TestShop, title: string) => {
      const created = await sandboxes.merchant(shop, 'POST', 'products.json', { product: { title } });
      return String((created.body.product as { id: number }).id);
    };
    aProducts = [];
    for (let i = 0; i < PRODUCTS; i += 10) {
      const batch = Array.from({ length: Math.min(10, PRODUCTS - i) }, (_, k) => create(a, `A ${i + k}`));
      aProducts.push(...(await Promise.all(batch)));
    }
    bProduct = await create(b, 'B edit');
    harness = await startConnector({
      shops: [a, b],
      catalogUrl: sandboxes.catalog.url,
      catalogApiKey: apiKey,
      shopifyFetch: sandboxes.shopifyFetch,
      env: {
        CONNECTOR_ADMIN_TOKEN: token,
        // One worker: the order the runs start in is the queue's.
        CONNECTOR_SYNC_CONCURRENCY: '1',
        // The resync walks id pages (no bulk read), one page.
        CONNECTOR_BULK_THRESHOLD: '200',
        CONNECTOR_MEDIA_ENABLED: 'false',
      },
      syncHooks: {
        runStarted: (subject) => {
          started.push(subject);
        },
        afterShopifyRead: async () => {
          await held;
        },
      },
    });
  }, 120_000);
  afterAll(async () => {
    release();
    await harness?.close();
    await sandboxes?.close();
  });

  const admin = <T>(method: string, path: string) => call<T>(harness.url, method, path, token);
  const enqueued = async (shop: TestShop, count: number) =>
    eventually(
      async () =>
        (await harness.inbox(shop.domain)).filter((row) => row.enqueued_at !== null).length >= count,
    );

  it("runs B's edit after at most one of A's 99 queued jobs, and A's edits before A's resync", {
    timeout: 120_000,
  }, async () => {
    const queue = harness.connector.app.get<Queue<SyncProductPayload>>(
      getQueueToken(QueueName.SYNC_PRODUCT),
      {
        strict: false,
      },
    );
    const run = await admin<Run>('POST', `/admin/resync?shop=${a.domain}`);
    expect(run.status).toBe(200);
    await eventually(async () => {
      const shown = (await admin<Run>('GET', `/admin/resync/${run.body.id}`)).body;
      return shown.walkDone && shown.listed === PRODUCTS;
    });
    // The worker holds the first run; every other product waits in the queue.
    await eventually(async () => started.length === 1);
    const first = started[0]?.productId;
    await eventually(async () => (await queue.getJobCounts('prioritized')).prioritized >= PRODUCTS - 1);
    // They wait their shop's turn (BullMQ's `prioritized`): the metrics count them as waiting.
    const metrics = (await call(harness.url, 'GET', '/metrics', token)).text;
    const waiting = /^connector_queue_jobs\{queue="sync-product",state="waiting"\} (\d+)$/m.exec(metrics);
    expect(Number(waiting?.[1])).toBeGreaterThanOrEqual(PRODUCTS - 1);

    // A's merchant edits 60 of the waiting products: each delivery joins its product's resync job.
    const edited = aProducts.filter((id) => id !== first).slice(0, EDITED);
    const now = new Date().toISOString();
    for (let i = 0; i < edited.length; i += 10) {
      const answers = await Promise.all(
        edited.slice(i, i + 10).map((id) => harness.deliver({ shop: a, body: productUpdateBody(id, now) })),
      );
      expect(answers.map((answer) => answer.status)).toEqual(answers.map(() => 200));
    }
    await enqueued(a, EDITED);
    // Then B's merchant saves one product.
    expect((await harness.deliver({ shop: b, body: productUpdateBody(bProduct, now) })).status).toBe(200);
    await enqueued(b, 1);

    release();
    await eventually(async () => started.length >= PRODUCTS + 1, 60_000);
    const order = started.slice(1);
    const bAt = order.findIndex((subject) => subject.shop === b.domain);
    // Behind B's edit: A's edit of turn 0 alone, not A's 59 other edits nor its 39 resync syncs.
    expect(bAt).toBeLessThanOrEqual(1);
    // A's own edits all run before the rest of its resync.
    const aOrder = order.filter((subject) => subject.shop === a.domain).map((subject) => subject.productId);
    expect(new Set(aOrder.slice(0, EDITED))).toEqual(new Set(edited));
  });
});
