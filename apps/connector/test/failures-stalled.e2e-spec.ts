import { getQueueToken } from '@nestjs/bullmq';
import type { Queue } from 'bullmq';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { FailuresService } from '../src/platform/failures/failures.service.js';
import { QueueName } from '../src/platform/queues/queue-names.js';
import { type ConnectorHarness, eventually, startConnector } from './support/connector-harness.js';
import { type Sandboxes, startSandboxes } from './support/sandboxes.js';
import { type TestShop, testShop } from './support/test-shop.js';

const STALLED = 'job stalled more than allowable limit';

// A job whose process was killed twice while running it is failed by BullMQ itself ("job stalled
// more than allowable limit"), outside any job code: it must still land in the failures inbox
// and be replayable there. BullMQ's stall check marks such a job with a deferred failure and puts
// it back; the next worker to take it fails it. The test writes that same mark.
describe('jobs failed by the queue itself', () => {
  let sandboxes: Sandboxes;
  let harness: ConnectorHarness;
  let shop: TestShop;
  const backend = inject('queueBackend');

  beforeAll(async () => {
    sandboxes = await startSandboxes();
    shop = testShop();
    await sandboxes.addShop(shop);
    harness = await startConnector({
      shops: [shop],
      catalogUrl: sandboxes.catalog.url,
      catalogApiKey: (await sandboxes.account()).apiKey,
      shopifyFetch: sandboxes.shopifyFetch,
    });
  });
  afterAll(async () => {
    await harness?.close();
    await sandboxes?.close();
  });

  /** Writes BullMQ's stall-limit mark on a job, as its stall check does after the second stall. */
  async function markStalledTooOften(jobId: string): Promise<void> {
    if (backend.kind === 'redis') {
      const redis = new Redis(backend.url, { maxRetriesPerRequest: null });
      try {
        await redis.hset(`${harness.schema}_q:${QueueName.SYNC_PRODUCT}:${jobId}`, 'defa', STALLED);
      } finally {
        redis.disconnect();
      }
      return;
    }
    await harness.db.query(
      `UPDATE "${harness.schema}_q".job SET deferred_failure = $1 WHERE queue LIKE $2 AND id = $3`,
      [STALLED, `%${QueueName.SYNC_PRODUCT}`, jobId],
    );
  }

  it('records a job that stalled more than the allowable limit, and replays it', async () => {
    const created = await sandboxes.merchant(shop, 'POST', 'products.json', {
      product: { title: 'Stalled twice' },
    });
    const productId = String((created.body.product as { id: number }).id);
    const queue = harness.connector.app.get<Queue>(getQueueToken(QueueName.SYNC_PRODUCT), { strict: false });
    const job = await queue.add(
      QueueName.SYNC_PRODUCT,
      { shop: shop.domain, productId, reason: 'webhook' },
      { delay: 1_000, attempts: 8 },
    );
    await markStalledTooOften(String(job.id));

    const failures = harness.connector.app.get(FailuresService);
    const failure = await eventually(async () => {
      const [open] = await failures.list({ shop: shop.domain, state: 'open' });
      return open;
    });
    expect(failure).toMatchObject({
      jobKind: QueueName.SYNC_PRODUCT,
      subjectKey: productId,
      errorCode: 'job_stalled',
      payload: { shop: shop.domain, productId, reason: 'webhook' },
    });
    expect(failure.errorMessage).toContain(STALLED);

    await failures.replay(failure.id);
    await eventually(async () => {
      const { rows } = await harness.db.query<{ outcome: string }>(
        `SELECT outcome FROM "${harness.schema}".sync_records WHERE shop = $1 AND product_id = $2`,
        [shop.domain, productId],
      );
      return rows.some((row) => row.outcome === 'synced');
    });
    expect((await failures.get(failure.id))?.state).toBe('replayed');
  });
});
