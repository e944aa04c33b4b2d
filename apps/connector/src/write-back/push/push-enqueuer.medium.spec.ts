import { afterAll, describe, expect, it } from 'vitest';
import { SystemClock } from '#lib/clock';
import { jobsBefore, orderedQueue } from '../../../test/support/queue-order.js';
import { loadConnectorConfig } from '../../platform/config/connector.config.js';
import type { EnrichmentPushPayload } from '../../platform/queues/job-payloads.js';
import { QueueName } from '../../platform/queues/queue-names.js';
import { PushEnqueuer } from './push-enqueuer.service.js';

const { enrichment } = loadConnectorConfig({
  CONNECTOR_SHOPS: 'a.myshopify.com',
  CONNECTOR_SHOP_A_ACCESS_TOKEN: 't',
  CONNECTOR_WEBHOOK_SECRETS: 's',
  CONNECTOR_CATALOG_URL: 'http://catalog',
  CONNECTOR_CATALOG_API_KEY: 'k',
});

const A = 'a.myshopify.com';
const B = 'b.myshopify.com';
const pushes = (shop: string, count: number, reason: EnrichmentPushPayload['reason']) =>
  Array.from({ length: count }, (_, i) => ({ shop, productId: `${reason}-${i}`, reason }));

/**
 * Fairness across shops on the write-back queue, against the real backend (docs/sync.md,
 * "Fairness across shops"): shop A went live (300 pushes, bulk) and a poll found 600 approvals in
 * it; the next poll finds one in shop B. One worker takes the jobs one at a time.
 */
describe("PushEnqueuer: a shop's 900 write-backs never hold up another shop's", () => {
  const t = orderedQueue<EnrichmentPushPayload>(QueueName.ENRICHMENT_PUSH);
  afterAll(() => t.close());

  it("runs another shop's approval after at most one of the big shop's, and a go-live's pushes last", async () => {
    const enqueuer = new PushEnqueuer(enrichment, t.queue, new SystemClock());
    await enqueuer.enqueueMany(pushes(A, 300, 'go-live'));
    await enqueuer.enqueueMany(pushes(A, 600, 'poll'));
    await enqueuer.enqueue({ shop: B, productId: 'approved', reason: 'poll' });

    const order = await t.run(901);
    expect(jobsBefore(order, A, (job) => job.shop === B)).toBeLessThanOrEqual(1);
    expect(order.slice(-300).every((job) => job.reason === 'go-live')).toBe(true);
  });
});
