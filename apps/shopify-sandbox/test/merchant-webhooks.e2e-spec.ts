import { readFileSync } from 'node:fs';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { type ShopifySandboxHarness, startShopifySandbox } from '#testing/shopify-sandbox';
import { WebhookReceiver } from './webhook-receiver.js';

const exemplar = JSON.parse(
  readFileSync(new URL('./fixtures/products_update.anonymized-real.2025-04.json', import.meta.url), 'utf8'),
) as Record<string, unknown>;

const SUBSCRIBE = `mutation Subscribe($topic: WebhookSubscriptionTopic!, $uri: String!) {
  webhookSubscriptionCreate(topic: $topic, webhookSubscription: { uri: $uri }) {
    webhookSubscription { id topic uri }
    userErrors { field message }
  }
}`;

describe('merchant changes reach subscribed receivers', () => {
  let h: ShopifySandboxHarness;
  let receiver: WebhookReceiver;

  beforeAll(async () => {
    // These tests count deliveries per write: they ask by name for one delivery per write and no
    // products/update after a create (test/webhook-timing.e2e-spec.ts covers the faithful default).
    h = await startShopifySandbox({ webhooks: { mergeWindowMs: 0, updateAfterCreate: false } });
  });
  afterAll(() => h.close());
  afterEach(() => receiver?.close());

  async function subscribe(...topics: string[]) {
    receiver = await WebhookReceiver.start(h.appSecret);
    for (const topic of topics) {
      const reply = await h.graphql<{ webhookSubscriptionCreate: { userErrors: unknown[] } }>(SUBSCRIBE, {
        topic,
        uri: receiver.url,
      });
      expect(reply.data?.webhookSubscriptionCreate.userErrors).toEqual([]);
    }
  }

  it('signs a products/create delivery so that @shopify/shopify-api accepts it', async () => {
    await subscribe('PRODUCTS_CREATE');
    const created = await h.merchant('POST', 'products.json', {
      product: {
        title: 'Linen Shirt',
        vendor: 'Acme',
        tags: 'summer, linen',
        variants: [{ sku: 'LIN-1', price: '35' }],
      },
    });
    expect(created.status).toBe(201);
    const [webhook] = await receiver.waitFor(1);
    expect(webhook.validation).toMatchObject({
      valid: true,
      topic: 'PRODUCTS_CREATE',
      domain: h.shopDomain,
      apiVersion: '2026-07',
    });
    expect(webhook.headers['x-shopify-topic']).toBe('products/create');
    expect(webhook.headers['x-shopify-event-id']).toMatch(/^[0-9a-f-]{36}$/);
    expect(Date.parse(String(webhook.headers['x-shopify-triggered-at']))).not.toBeNaN();
    const product = created.body.product as Record<string, unknown>;
    expect(webhook.body).toMatchObject({
      id: product.id,
      title: 'Linen Shirt',
      vendor: 'Acme',
      tags: 'linen, summer',
    });
  });

  it('rejects a signature made with another secret', async () => {
    await subscribe('PRODUCTS_CREATE');
    const other = await WebhookReceiver.start('not-the-app-secret');
    await h.graphql(SUBSCRIBE, { topic: 'PRODUCTS_CREATE', uri: other.url });
    await h.merchant('POST', 'products.json', { product: { title: 'Signed' } });
    const [webhook] = await other.waitFor(1);
    expect(webhook.validation.valid).toBe(false);
    await other.close();
  });

  it('sends products/update with the real payload shape, and products/delete with the id', async () => {
    await subscribe('PRODUCTS_UPDATE', 'PRODUCTS_DELETE');
    const created = await h.merchant('POST', 'products.json', {
      product: {
        title: 'Mug',
        product_type: 'Kitchen',
        options: [{ name: 'Colour' }],
        variants: [
          { option1: 'Red', sku: 'MUG-R', barcode: '400001', price: '9.50', inventory_quantity: 3 },
          { option1: 'Blue', sku: 'MUG-B', price: '9.50' },
        ],
        images: [{ src: 'https://example.com/mug.jpg', alt: 'A mug' }],
      },
    });
    const id = (created.body.product as { id: number }).id;
    const updated = await h.merchant('PUT', `products/${id}.json`, {
      product: { id, title: 'Big Mug', status: 'draft' },
    });
    expect(updated.status).toBe(200);
    const [update] = await receiver.waitFor(1);
    expect(update.headers['x-shopify-topic']).toBe('products/update');
    expect(Object.keys(update.body).sort()).toEqual(Object.keys(exemplar).sort());
    const variant = (update.body.variants as Array<Record<string, unknown>>)[0];
    const exemplarVariant = (exemplar.variants as Array<Record<string, unknown>>)[0];
    expect(Object.keys(variant).sort()).toEqual(Object.keys(exemplarVariant).sort());
    expect(update.body).toMatchObject({ title: 'Big Mug', status: 'draft', product_type: 'Kitchen' });
    expect(variant).toMatchObject({
      sku: 'MUG-R',
      barcode: '400001',
      price: '9.50',
      option1: 'Red',
      inventory_quantity: 3,
    });
    expect(update.body.updated_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d-05:00$/);
    expect((update.body.images as unknown[]).length).toBe(1);

    expect((await h.merchant('DELETE', `products/${id}.json`)).status).toBe(200);
    const [, deleted] = await receiver.waitFor(2);
    expect(deleted.headers['x-shopify-topic']).toBe('products/delete');
    expect(deleted.body).toEqual({ id });
    expect((await h.merchant('GET', `products/${id}.json`)).status).toBe(404);
  });

  it('fires products/update for an inventory change (the topic is noisy)', async () => {
    const created = await h.merchant('POST', 'products.json', {
      product: { title: 'Socks', variants: [{ sku: 'SOCK' }] },
    });
    const variant = (created.body.product as { variants: Array<{ inventory_item_id: number }> }).variants[0];
    await subscribe('PRODUCTS_UPDATE');
    const set = await h.merchant('POST', 'inventory_levels/set.json', {
      inventory_item_id: variant.inventory_item_id,
      available: 7,
    });
    expect(set.status).toBe(200);
    const adjust = await h.merchant('POST', 'inventory_levels/adjust.json', {
      inventory_item_id: variant.inventory_item_id,
      available_adjustment: -2,
    });
    expect((adjust.body.inventory_level as { available: number }).available).toBe(5);
    const [first, second] = await receiver.waitFor(2);
    const quantities = [first, second].map((w) => (w.body.variants as Array<Record<string, unknown>>)[0]);
    expect(quantities).toMatchObject([
      { inventory_quantity: 7, old_inventory_quantity: 0 },
      { inventory_quantity: 5, old_inventory_quantity: 7 },
    ]);
    expect(first.headers['x-shopify-event-id']).not.toBe(second.headers['x-shopify-event-id']);
  });

  it('gives full details for the first 100 variants and variant_gids for all', async () => {
    await subscribe('PRODUCTS_CREATE');
    const variants = Array.from({ length: 130 }, (_, i) => ({ option1: `V${i}`, sku: `SKU-${i}` }));
    const created = await h.merchant('POST', 'products.json', {
      product: { title: 'Many', options: [{ name: 'V' }], variants },
    });
    expect(created.status).toBe(201);
    const [webhook] = await receiver.waitFor(1);
    expect((webhook.body.variants as unknown[]).length).toBe(100);
    const gids = webhook.body.variant_gids as Array<{ admin_graphql_api_id: string; updated_at: string }>;
    expect(gids).toHaveLength(130);
    expect(gids[0].admin_graphql_api_id).toMatch(/^gid:\/\/shopify\/ProductVariant\/\d+$/);
  });

  it('narrows the payload to includeFields and adds metafields of metafieldNamespaces', async () => {
    receiver = await WebhookReceiver.start(h.appSecret);
    const reply = await h.graphql<{ webhookSubscriptionCreate: { userErrors: unknown[] } }>(
      `mutation($uri: String!) {
        webhookSubscriptionCreate(topic: PRODUCTS_UPDATE, webhookSubscription: {
          uri: $uri, name: "narrow", includeFields: ["id", "title", "metafields"], metafieldNamespaces: ["custom"]
        }) { userErrors { field message } }
      }`,
      { uri: receiver.url },
    );
    expect(reply.data?.webhookSubscriptionCreate.userErrors).toEqual([]);
    const created = await h.merchant('POST', 'products.json', { product: { title: 'Narrow' } });
    const product = created.body.product as { id: number; admin_graphql_api_id: string };
    await h.graphql(
      'mutation($m: [MetafieldsSetInput!]!) { metafieldsSet(metafields: $m) { userErrors { message } } }',
      {
        m: [
          {
            ownerId: product.admin_graphql_api_id,
            namespace: 'custom',
            key: 'fabric',
            type: 'single_line_text_field',
            value: 'wool',
          },
        ],
      },
    );
    const [webhook] = await receiver.waitFor(1);
    expect(webhook.headers['x-shopify-name']).toBe('narrow');
    expect(webhook.body).toMatchObject({
      id: product.id,
      title: 'Narrow',
      metafields: [{ namespace: 'custom', key: 'fabric', value: 'wool' }],
    });
    expect(Object.keys(webhook.body).sort()).toEqual(['id', 'metafields', 'title']);
  });

  it('requires the access token on the merchant API, as Shopify does', async () => {
    const reply = await fetch(`${h.adminUrl}/products.json`, { method: 'POST', body: '{}' });
    expect(reply.status).toBe(401);
    expect(await reply.json()).toEqual({
      errors: '[API] Invalid API key or access token (unrecognized login or wrong password)',
    });
  });

  it('answers 422 with field errors for an invalid product', async () => {
    const reply = await h.merchant('POST', 'products.json', {
      product: { title: '', variants: [{ price: -1 }] },
    });
    expect(reply.status).toBe(422);
    expect(reply.body.errors).toHaveProperty('variants');
  });
});
