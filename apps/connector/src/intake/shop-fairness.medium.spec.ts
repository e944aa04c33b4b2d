import { afterAll, describe, expect, it } from 'vitest';
import { SystemClock } from '#lib/clock';
import { jobsBefore, orderedQueue } from '../../test/support/queue-order.js';
import { loadConnectorConfig } from '../platform/config/connector.config.js';
import type { SyncProductPayload } from '../platform/queues/job-payloads.js';
import { QueueName } from '../platform/queues/queue-names.js';
import { SyncEnqueuer } from './sync-enqueuer.service.js';

const config = loadConnectorConfig({
  CONNECTOR_SHOPS: 'a.myshopify.com',
  CONNECTOR_SHOP_A_ACCESS_TOKEN: 't',
  CONNECTOR_WEBHOOK_SECRETS: 's',
  CONNECTOR_CATALOG_URL: 'http://catalog',
  CONNECTOR_CATALOG_API_KEY: 'k',
  // No debounce: every job is due at once, so the order is the queue's alone.
  CONNECTOR_SYNC_DEBOUNCE_MS: '0',
});

const A = 'a.myshopify.com';
const B = 'b.myshopify.com';
const C = 'c.myshopify.com';
const ids = (prefix: string, count: number) => Array.from({ length: count }, (_, i) => `${prefix}${i}`);

/**
 * Fairness across shops on the sync queue, against the real backend (docs/sync.md, "Fairness
 * across shops"). Shop A queues a resync of 300 products, a storm of 200 edits and a drift of 50;
 * then shop B's merchant saves one product and shop C reconciles 5. One worker then takes the jobs
 * one at a time: the order is the backend's, and it is what is asserted.
 */
describe('SyncEnqueuer: every shop takes its turn in the sync queue', () => {
  const t = orderedQueue<SyncProductPayload>(QueueName.SYNC_PRODUCT);
  afterAll(() => t.close());

  it("runs another shop's edit after at most one job of a shop with 550 queued, and each shop's edits before its bulk work", async () => {
    const enqueuer = new SyncEnqueuer(t.queue, config.sync, new SystemClock());
    // A resync walks pages: one add per page.
    for (const page of [ids('r', 250), ids('r', 300).slice(250)])
      await enqueuer.enqueueMany(page.map((productId) => ({ shop: A, productId, reason: 'resync' })));
    // A storm of edits, as the intake flushes them: batches of 20.
    const storm = ids('w', 200);
    for (let i = 0; i < storm.length; i += 20)
      await enqueuer.enqueueMany(
        storm.slice(i, i + 20).map((productId) => ({ shop: A, productId, reason: 'webhook' })),
      );
    // The mapping changed: drift syncs, one add each (as `DriftScanner` does).
    for (const productId of ids('d', 50)) await enqueuer.enqueue({ shop: A, productId, reason: 'drift' });
    await enqueuer.enqueue({ shop: B, productId: 'edit', reason: 'webhook' });
    await enqueuer.enqueueMany(ids('c', 5).map((productId) => ({ shop: C, productId, reason: 'reconcile' })));

    const order = await t.run(556);
    expect(order).toHaveLength(556);
    // B's edit: behind the storm's first job alone (its turn 0), not behind the 549 others.
    expect(jobsBefore(order, A, (job) => job.shop === B)).toBeLessThanOrEqual(1);
    // Shop A's own edits all run before any of its bulk work (resync, drift).
    const aOrder = order.filter((job) => job.shop === A).map((job) => job.reason);
    expect(aOrder.slice(0, 200)).toEqual(new Array(200).fill('webhook'));
    // C's reconciliation (bulk) takes turns with A's resync: each of its 5 jobs waits behind A's
    // bulk jobs of the same or an earlier turn only (A's turns 0..4), not behind A's 350.
    expect(jobsBefore(order, A, (job) => job.productId === 'c4')).toBeLessThanOrEqual(200 + 5);
    expect(order.findIndex((job) => job.productId === 'c4')).toBeLessThan(order.length - 300);
  });
});
