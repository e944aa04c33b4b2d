import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type ShopifySandboxHarness, startShopifySandbox } from '#testing/shopify-sandbox';
import { WebhookReceiver } from './webhook-receiver.js';

describe('delivery faults', () => {
  let h: ShopifySandboxHarness;
  let receiver: WebhookReceiver;

  beforeEach(async () => {
    h = await startShopifySandbox();
    receiver = await WebhookReceiver.start(h.appSecret);
    await h.graphql(
      `mutation { webhookSubscriptionCreate(topic: PRODUCTS_CREATE, webhookSubscription: { uri: "${receiver.url}" }) { userErrors { message } } }`,
    );
  });
  afterEach(async () => {
    await receiver.close();
    await h.close();
  });

  const faults = (body: unknown) => h.control('PUT', `shops/${h.shopDomain}/delivery-faults`, body);
  const create = (title: string) => h.merchant('POST', 'products.json', { product: { title } });
  const titles = () => receiver.received.map((w) => w.body.title);

  it('are off by default', async () => {
    const reply = await h.control('GET', `shops/${h.shopDomain}/delivery-faults`);
    expect(reply.body.faults).toMatchObject({ duplicate: 0, drop: 0, delayMs: 0, reorder: false });
  });

  it('duplicate: the same delivery twice, with the same webhook and event ids', async () => {
    await faults({ duplicate: 1 });
    await create('Twice');
    const [a, b] = await receiver.waitFor(2);
    expect(a.headers['x-shopify-event-id']).toBe(b.headers['x-shopify-event-id']);
    expect(a.headers['x-shopify-webhook-id']).toBe(b.headers['x-shopify-webhook-id']);
    expect(a.rawBody).toBe(b.rawBody);
  });

  it('drop: never sent, and logged as dropped', async () => {
    await faults({ drop: 1 });
    await create('Lost');
    await h.sandbox.idle();
    expect(receiver.received).toHaveLength(0);
    const log = await h.control('GET', `shops/${h.shopDomain}/deliveries?state=dropped`);
    expect(log.body.deliveries).toHaveLength(1);
  });

  it('reorder: deliveries arrive in swapped pairs', async () => {
    await faults({ reorder: true, reorderWindowMs: 5_000 });
    await create('First');
    await create('Second');
    await receiver.waitFor(2);
    expect(titles()).toEqual(['Second', 'First']);
  });

  it('reorder: a lone delivery goes out after the window, or when flushed', async () => {
    await faults({ reorder: true, reorderWindowMs: 60_000 });
    await create('Alone');
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(receiver.received).toHaveLength(0);
    const flushed = await h.control('POST', `shops/${h.shopDomain}/deliveries/flush?timeoutMs=2000`);
    expect(flushed.body).toEqual({ settled: true });
    expect(titles()).toEqual(['Alone']);
  });

  it('delay: the first attempt waits', async () => {
    await faults({ delayMs: 150 });
    const started = Date.now();
    await create('Late');
    await receiver.waitFor(1);
    expect(Date.now() - started).toBeGreaterThanOrEqual(140);
  });

  it('seeded probabilities give the same run for the same seed', async () => {
    const run = async () => {
      await h.control('DELETE', `shops/${h.shopDomain}/deliveries`);
      await faults({ drop: 0.5, seed: 42 });
      for (let i = 0; i < 8; i++) await create(`P${i}`);
      await h.sandbox.idle();
      const log = await h.control('GET', `shops/${h.shopDomain}/deliveries`);
      return (log.body.deliveries as Array<{ state: string }>).map((d) => d.state);
    };
    const first = await run();
    expect(first).toContain('dropped');
    expect(first).toContain('delivered');
    expect(await run()).toEqual(first);
  });

  it('refuses unknown faults', async () => {
    const reply = await faults({ explode: true });
    expect(reply.status).toBe(400);
    expect(String(reply.body.errors)).toContain('unknown fault "explode"');
  });
});
