import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ConnectorHarness, eventually, startConnector } from './support/connector-harness.js';
import { productReads, type Sandboxes, startSandboxes } from './support/sandboxes.js';
import { productUpdateBody, sign, type TestShop, testShop } from './support/test-shop.js';

// POST /webhooks/shopify against a real connector (PostgreSQL, queue) and the Shopify sandbox.
describe('webhook intake', () => {
  let sandboxes: Sandboxes;
  let harness: ConnectorHarness;
  let shop: TestShop;
  const rotated = testShop({ webhookSecrets: ['new-secret-value', 'old-secret-value'] });

  beforeAll(async () => {
    sandboxes = await startSandboxes();
    shop = testShop();
    await sandboxes.addShop(shop);
    await sandboxes.addShop(rotated);
    const account = await sandboxes.account();
    harness = await startConnector({
      shops: [shop, rotated],
      catalogUrl: sandboxes.catalog.url,
      catalogApiKey: account.apiKey,
      shopifyFetch: sandboxes.shopifyFetch,
    });
  });
  afterAll(async () => {
    await harness?.close();
    await sandboxes?.close();
  });

  const now = () => new Date().toISOString();

  it('stores a signed delivery, enqueues it once, and its job reads the product', async () => {
    const created = await sandboxes.merchant(shop, 'POST', 'products.json', {
      product: { title: 'Door test' },
    });
    const productId = String((created.body.product as { id: number }).id);
    const webhookId = randomUUID();
    const eventId = randomUUID();
    const answer = await harness.deliver({
      shop,
      body: productUpdateBody(productId, now()),
      webhookId,
      eventId,
      headers: { 'X-Shopify-Triggered-At': '2026-11-23T10:00:00.123456789Z' },
    });
    expect(answer).toEqual({ status: 200, body: { status: 'accepted', webhookId, queued: true } });
    const [row] = await harness.inbox(shop.domain, productId);
    expect(row).toMatchObject({
      webhook_id: webhookId,
      event_id: eventId,
      triggered_at: '2026-11-23T10:00:00.123456789Z',
      topic: 'products/update',
      product_id: productId,
    });
    expect(row?.enqueued_at).not.toBeNull();
    const done = await eventually(async () => {
      const [current] = await harness.inbox(shop.domain, productId);
      return current?.state === 'done' && current;
    });
    expect(done.outcome).toBe('synced');
    expect(productReads(await sandboxes.adminRequests(shop), productId)).toBe(1);
  });
});
