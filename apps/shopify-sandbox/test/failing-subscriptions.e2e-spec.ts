import { afterEach, describe, expect, it } from 'vitest';
import {
  type SandboxOverrides,
  type ShopifySandboxHarness,
  startShopifySandbox,
} from '#testing/shopify-sandbox';
import { type Responder, WebhookReceiver } from './webhook-receiver.js';

interface LoggedDelivery {
  state: string;
  attempts: Array<{ status: number | null; error: string | null }>;
}

const REMOVED = 'subscription removed after a delivery failed every retry';

describe('webhook subscriptions that keep failing', () => {
  let h: ShopifySandboxHarness;
  let receiver: WebhookReceiver;
  afterEach(async () => {
    await receiver.close();
    await h.close();
  });

  async function setUp(respond: Responder, overrides: SandboxOverrides = {}) {
    // Four attempts per delivery (three retries).
    h = await startShopifySandbox({
      ...overrides,
      webhooks: { retryDelaysMs: [5, 5, 5], ...overrides.webhooks },
    });
    receiver = await WebhookReceiver.start(h.appSecret, respond);
    await h.graphql(
      `mutation { webhookSubscriptionCreate(topic: PRODUCTS_CREATE, webhookSubscription: { uri: "${receiver.url}" }) { userErrors { message } } }`,
    );
  }
  const create = async (title: string) => {
    await h.merchant('POST', 'products.json', { product: { title } });
    await h.sandbox.idle();
  };
  const subscriptions = async () =>
    (
      await h.graphql<{ webhookSubscriptions: { nodes: unknown[] } }>(
        '{ webhookSubscriptions(first: 5) { nodes { id } } }',
      )
    ).data?.webhookSubscriptions.nodes ?? [];
  const logged = async () =>
    (await h.deliveries({ topic: 'products/create' })) as unknown as LoggedDelivery[];

  it('deletes an Admin API subscription once a delivery failed every retry, and the log says so', async () => {
    await setUp(() => ({ status: 500 }));
    await create('First');
    expect(await subscriptions()).toEqual([]);
    expect(receiver.received).toHaveLength(4);
    const [first] = await logged();
    expect(first?.state).toBe('failed');
    expect(first?.attempts.at(-1)?.error).toBe(`answered HTTP 500; ${REMOVED}`);
    await create('Second');
    expect(receiver.received).toHaveLength(4);
  });

  it('keeps a subscription whose receiver comes back within the retries (a restart loses nothing)', async () => {
    await setUp((arrival) => ({ status: arrival <= 3 ? 500 : 200 }));
    await create('First');
    await create('Second');
    expect(await subscriptions()).toHaveLength(1);
    expect((await logged()).map((d) => d.state)).toEqual(['delivered', 'delivered']);
  });

  it('counts deliveries in a row only: a success starts the count again', async () => {
    await setUp((arrival) => ({ status: arrival === 5 ? 200 : 500 }), {
      webhooks: { removeAfterFailures: 2 },
    });
    await create('First');
    await create('Second');
    expect(await subscriptions()).toHaveLength(1);
    expect((await logged()).map((d) => d.state)).toEqual(['failed', 'delivered']);
  });

  it('keeps the subscription with SHOPIFY_SANDBOX_WEBHOOK_REMOVE_AFTER_FAILURES=0 (kinder)', async () => {
    await setUp(() => ({ status: 500 }), { webhooks: { removeAfterFailures: 0 } });
    await create('First');
    await create('Second');
    await create('Third');
    expect(await subscriptions()).toHaveLength(1);
    expect(receiver.received).toHaveLength(12);
  });
});
