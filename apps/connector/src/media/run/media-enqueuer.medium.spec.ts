import { afterAll, describe, expect, it } from 'vitest';
import { SystemClock } from '#lib/clock';
import { jobsBefore, orderedQueue } from '../../../test/support/queue-order.js';
import { loadConnectorConfig } from '../../platform/config/connector.config.js';
import type { SyncMediaPayload } from '../../platform/queues/job-payloads.js';
import { QueueName } from '../../platform/queues/queue-names.js';
import { MediaEnqueuer } from './media-enqueuer.service.js';

const { media } = loadConnectorConfig({
  CONNECTOR_SHOPS: 'a.myshopify.com',
  CONNECTOR_SHOP_A_ACCESS_TOKEN: 't',
  CONNECTOR_WEBHOOK_SECRETS: 's',
  CONNECTOR_CATALOG_URL: 'http://catalog',
  CONNECTOR_CATALOG_API_KEY: 'k',
  // No delay: every job is due at once, so the order is the queue's alone.
  CONNECTOR_MEDIA_DELAY_MS: '0',
});

const A = 'a.myshopify.com';
const B = 'b.myshopify.com';

/**
 * Fairness across shops on the media queue, against the real backend (docs/sync.md, "Fairness
 * across shops"): shop A's resync left 300 media runs (bulk) and its edits 100 (live); then shop
 * B's merchant edits one product. One worker takes the jobs one at a time, in the backend's order.
 */
describe("MediaEnqueuer: a shop's resync images never hold up another shop's", () => {
  const t = orderedQueue<SyncMediaPayload>(QueueName.SYNC_MEDIA);
  afterAll(() => t.close());

  it("runs another shop's edit's images after at most one of the big shop's 400, its edits' before its resync's", async () => {
    const enqueuer = new MediaEnqueuer(t.queue, media, new SystemClock());
    for (let i = 0; i < 300; i++)
      await enqueuer.enqueue({ shop: A, productId: `r${i}`, reason: 'synced' }, 'bulk');
    for (let i = 0; i < 100; i++) await enqueuer.enqueue({ shop: A, productId: `w${i}`, reason: 'synced' });
    await enqueuer.enqueue({ shop: B, productId: 'edit', reason: 'synced' });

    const order = await t.run(401);
    expect(jobsBefore(order, A, (job) => job.shop === B)).toBeLessThanOrEqual(1);
    const aOrder = order.filter((job) => job.shop === A).map((job) => job.productId[0]);
    expect(aOrder.slice(0, 100)).toEqual(new Array(100).fill('w'));
  });
});
