import { afterEach, describe, expect, it } from 'vitest';
import { ManualClock } from '#lib/clock';
import { type ShopifySandboxHarness, startShopifySandbox } from '#testing/shopify-sandbox';
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

  async function setUp(
    respond: Responder,
    timeoutMs = 5_000,
    clock?: ManualClock,
    retryDelaysMs = [10, 20, 40],
  ) {
    h = await startShopifySandbox({ clock, webhooks: { retryDelaysMs, timeoutMs } });
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

  it('waits for the back-off on the injected clock before each retry', async () => {
    const clock = new ManualClock();
    await setUp((arrival) => ({ status: arrival === 1 ? 500 : 200 }), 5_000, clock, [60_000, 300_000]);
    await receiver.waitFor(1);
    const firstAttemptLogged = async () => {
      for (let i = 0; i < 200; i++) {
        const log = await h.control('GET', `shops/${h.shopDomain}/deliveries`);
        if ((log.body.deliveries as Delivery[])[0]?.attempts.length === 1) return;
        await new Promise((resolve) => setTimeout(resolve, 5));
      }
      throw new Error('first attempt never logged');
    };
    await firstAttemptLogged();
    await clock.advance(59_999);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(receiver.received).toHaveLength(1);
    await clock.advance(1);
    await receiver.waitFor(2);
    expect((await deliveries())[0].state).toBe('delivered');
  });
});
