import { afterEach, describe, expect, it } from 'vitest';
import { ManualClock } from '#lib/clock';
import {
  type SandboxOverrides,
  type ShopifySandboxHarness,
  startShopifySandbox,
} from '#testing/shopify-sandbox';
import { WebhookReceiver } from './webhook-receiver.js';

interface RestProduct {
  id: number;
  admin_graphql_api_id: string;
  updated_at: string;
  created_at: string;
  variants: Array<{ id: number; inventory_item_id: number }>;
}

describe('when products/* webhooks go out', () => {
  let h: ShopifySandboxHarness;
  let receiver: WebhookReceiver;
  let clock: ManualClock;
  afterEach(async () => {
    await receiver.close();
    await h.close();
  });

  async function setUp(overrides: SandboxOverrides = {}) {
    clock = new ManualClock(Date.UTC(2026, 5, 1, 12));
    h = await startShopifySandbox({ clock, ...overrides });
    receiver = await WebhookReceiver.start(h.appSecret);
    for (const topic of ['PRODUCTS_CREATE', 'PRODUCTS_UPDATE']) {
      await h.graphql(
        `mutation($uri: String!) { webhookSubscriptionCreate(topic: ${topic}, webhookSubscription: { uri: $uri }) { userErrors { message } } }`,
        { uri: receiver.url },
      );
    }
  }

  const create = async (product: Record<string, unknown>) =>
    (await h.merchant('POST', 'products.json', { product })).body.product as RestProduct;
  const put = (id: number, product: Record<string, unknown>) =>
    h.merchant('PUT', `products/${id}.json`, { product });
  const read = async (id: number) =>
    (await h.merchant('GET', `products/${id}.json`)).body.product as RestProduct;
  const settled = async () => {
    await new Promise((resolve) => setTimeout(resolve, 30));
    await h.sandbox.idle();
  };
  const summary = () =>
    receiver.received.map((w) => `${w.headers['x-shopify-topic']} ${w.body.title ?? w.body.id}`);
  const allValid = () => expect(receiver.received.every((w) => w.validation.valid)).toBe(true);

  it('by default, merges rapid writes of a product into one products/update, after a create and its update', async () => {
    await setUp();
    const product = await create({ title: 'Draft' });
    await put(product.id, { title: 'A' });
    await put(product.id, { title: 'B' });
    await put(product.id, { title: 'C' });
    await receiver.waitFor(1);
    await clock.advance(299);
    await new Promise((resolve) => setTimeout(resolve, 30));
    expect(summary()).toEqual(['products/create Draft']);
    await clock.advance(1);
    await receiver.waitFor(2);
    await settled();
    expect(summary()).toEqual(['products/create Draft', 'products/update C']);
    expect(receiver.received[1].headers['x-shopify-product-id']).toBe(String(product.id));

    // An echo: the connector's own write and a merchant's write inside one window give one webhook.
    await put(product.id, { title: 'Written by the app' });
    await put(product.id, { title: 'Written by the merchant' });
    await clock.advance(300);
    await receiver.waitFor(3);
    await settled();
    expect(summary().slice(2)).toEqual(['products/update Written by the merchant']);
    allValid();
  });

  it('sends each update at once when flushed through the control API', async () => {
    await setUp({ webhooks: { mergeWindowMs: 60_000 } });
    const product = await create({ title: 'Waiting' });
    await put(product.id, { title: 'Flushed' });
    const flushed = await h.control('POST', `shops/${h.shopDomain}/deliveries/flush?timeoutMs=5000`);
    expect(flushed.body).toEqual({ settled: true });
    // Both went out at the flush, concurrently: which arrived first is not the claim.
    expect(summary().sort()).toEqual(['products/create Waiting', 'products/update Flushed']);
  });

  it('sends one delivery per write when mergeWindowMs is 0 (asked for by name)', async () => {
    await setUp({ webhooks: { mergeWindowMs: 0, updateAfterCreate: false } });
    const product = await create({ title: 'Draft' });
    await put(product.id, { title: 'A' });
    await put(product.id, { title: 'B' });
    await receiver.waitFor(3);
    await settled();
    expect(summary()).toEqual(['products/create Draft', 'products/update A', 'products/update B']);
    allValid();
  });

  it('follows products/create with products/update of the same product by default; a switch turns it off', async () => {
    await setUp({ webhooks: { mergeWindowMs: 0 } });
    const product = await create({ title: 'Pair' });
    // Both go out at once (no merge window): they may arrive in either order, as Shopify's may.
    const both = await receiver.waitFor(2);
    const byTopic = (topic: string) => both.find((w) => w.headers['x-shopify-topic'] === topic);
    expect(both.map((w) => w.headers['x-shopify-topic']).sort()).toEqual([
      'products/create',
      'products/update',
    ]);
    const [created, updated] = [byTopic('products/create'), byTopic('products/update')] as [
      (typeof both)[number],
      (typeof both)[number],
    ];
    expect(updated.body).toMatchObject({ id: product.id, title: 'Pair' });
    expect(updated.headers['x-shopify-product-id']).toBe(String(product.id));
    expect(updated.headers['x-shopify-event-id']).not.toBe(created.headers['x-shopify-event-id']);
    await receiver.close();
    await h.close();

    await setUp({ webhooks: { mergeWindowMs: 0, updateAfterCreate: false } });
    await create({ title: 'Alone' });
    await receiver.waitFor(1);
    await settled();
    expect(summary()).toEqual(['products/create Alone']);
  });

  it('fires products/update and bumps updated_at for a write that changes nothing, by default', async () => {
    await setUp({ webhooks: { mergeWindowMs: 0, updateAfterCreate: false } });
    const product = await create({ title: 'Same', tags: 'a, b', variants: [{ price: '5' }] });
    await receiver.waitFor(1);
    await clock.advance(2_000);
    await put(product.id, {
      title: 'Same',
      tags: 'b, a',
      variants: [{ id: product.variants[0].id, price: '5.00' }],
    });
    await h.graphql('mutation($id: ID!) { tagsAdd(id: $id, tags: ["a"]) { userErrors { message } } }', {
      id: product.admin_graphql_api_id,
    });
    await receiver.waitFor(3);
    await settled();
    expect(summary()).toEqual(['products/create Same', 'products/update Same', 'products/update Same']);
    expect((await read(product.id)).updated_at).not.toBe(product.updated_at);
    allValid();
  });

  it('ignores a write that changes nothing when noopUpdates is off (asked for by name)', async () => {
    await setUp({ webhooks: { mergeWindowMs: 0, updateAfterCreate: false, noopUpdates: false } });
    const product = await create({ title: 'Same', tags: 'a', variants: [{ price: '5' }] });
    await receiver.waitFor(1);
    await clock.advance(2_000);
    await put(product.id, { title: 'Same', tags: 'a', variants: [{ id: product.variants[0].id, price: 5 }] });
    await h.graphql('mutation($id: ID!) { tagsAdd(id: $id, tags: ["a"]) { userErrors { message } } }', {
      id: product.admin_graphql_api_id,
    });
    await h.merchant('POST', 'inventory_levels/set.json', {
      inventory_item_id: product.variants[0].inventory_item_id,
      available: 0,
    });
    await settled();
    expect(summary()).toEqual(['products/create Same']);
    expect((await read(product.id)).updated_at).toBe(product.updated_at);

    // A metafield-only change is still a change.
    const metafieldOnly = await h.graphql<{ productUpdate: { userErrors: unknown[] } }>(
      'mutation($p: ProductUpdateInput!) { productUpdate(product: $p) { userErrors { message } } }',
      {
        p: {
          id: product.admin_graphql_api_id,
          metafields: [{ namespace: 'custom', key: 'fabric', type: 'single_line_text_field', value: 'wool' }],
        },
      },
    );
    expect(metafieldOnly.data?.productUpdate.userErrors).toEqual([]);
    await put(product.id, { title: 'Changed' });
    await receiver.waitFor(3);
    await settled();
    expect(summary()).toEqual(['products/create Same', 'products/update Same', 'products/update Changed']);
  });
});
