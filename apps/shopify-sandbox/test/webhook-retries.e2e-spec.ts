import { afterEach, describe, expect, it } from 'vitest';
import { type ShopifySandboxHarness, startShopifySandbox } from './harness.js';
import { type Responder, WebhookReceiver } from './webhook-receiver.js';

interface Delivery {
  webhookId: string;
  eventId: string;
  state: string;
  duplicate: boolean;
  attempts: Array<{ number: number; status: number | null; error: string | null }>;
}

describe('webhook retries', () => {
  let h: ShopifySandboxHarness;
  let receiver: WebhookReceiver;
  afterEach(async () => {
    await receiver.close();
    await h.close();
  });

  async function setUp(respond: Responder, timeoutMs = 5_000) {
    h = await startShopifySandbox({ webhooks: { retryDelaysMs: [10, 20, 40], timeoutMs } });
    receiver = await WebhookReceiver.start(h.appSecret, respond);
    await h.graphql(
      `mutation { webhookSubscriptionCreate(topic: PRODUCTS_CREATE, webhookSubscription: { uri: "${receiver.url}" }) { userErrors { message } } }`,
    );
    await h.merchant('POST', 'products.json', { product: { title: 'Retried' } });
  }

  async function deliveries(): Promise<Delivery[]> {
    await h.sandbox.idle();
    return (await h.control('GET', `shops/${h.shopDomain}/deliveries`)).body.deliveries as Delivery[];
  }

  it('retries a failed delivery with the same webhook id until it succeeds', async () => {
    await setUp((arrival) => ({ status: arrival <= 2 ? 500 : 200 }));
    const received = await receiver.waitFor(3);
    const ids = new Set(received.map((w) => w.headers['x-shopify-webhook-id']));
    expect(ids.size).toBe(1);
    expect(received.every((w) => w.validation.valid)).toBe(true);
    const [delivery] = await deliveries();
    expect(delivery.state).toBe('delivered');
    expect(delivery.attempts.map((a) => a.status)).toEqual([500, 500, 200]);
  });

  it('gives up after the last retry of the schedule', async () => {
    await setUp(() => ({ status: 503 }));
    await receiver.waitFor(4);
    const [delivery] = await deliveries();
    expect(delivery.state).toBe('failed');
    expect(delivery.attempts).toHaveLength(4);
    expect(receiver.received).toHaveLength(4);
  });

  it('counts no answer within the time-out as a failure', async () => {
    await setUp((arrival) => ({ status: 200, delayMs: arrival === 1 ? 1_000 : 0 }), 100);
    await receiver.waitFor(2);
    const [delivery] = await deliveries();
    expect(delivery.attempts[0]).toMatchObject({ status: null, error: 'no answer within 100 ms' });
    expect(delivery.attempts[1]).toMatchObject({ status: 200 });
    expect(delivery.state).toBe('delivered');
  });
});
