import { createHmac } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import {
  type SandboxOverrides,
  type ShopifySandboxHarness,
  startShopifySandbox,
} from '#testing/shopify-sandbox';
import { WebhookReceiver } from './webhook-receiver.js';

const SUBSCRIBE = `mutation($topic: WebhookSubscriptionTopic!, $uri: String!) {
  webhookSubscriptionCreate(topic: $topic, webhookSubscription: { uri: $uri }) {
    webhookSubscription { id apiVersion { handle } } userErrors { field message }
  }
}`;

describe('webhook bytes, headers and API versions', () => {
  let h: ShopifySandboxHarness;
  const receivers: WebhookReceiver[] = [];
  afterEach(async () => {
    for (const receiver of receivers.splice(0)) await receiver.close();
    await h.close();
  });

  async function setUp(overrides: SandboxOverrides, verify: 'raw' | 'reserialized' = 'raw') {
    // Deliveries are counted per write here: one per write, no update after a create (asked by name).
    h = await startShopifySandbox({
      ...overrides,
      webhooks: { mergeWindowMs: 0, updateAfterCreate: false, ...overrides.webhooks },
    });
    return subscribe(verify, 'PRODUCTS_CREATE', 'PRODUCTS_UPDATE', 'PRODUCTS_DELETE');
  }

  async function subscribe(verify: 'raw' | 'reserialized', ...topics: string[]) {
    const receiver = await WebhookReceiver.start(h.appSecret, undefined, { verify });
    receivers.push(receiver);
    for (const topic of topics) {
      const reply = await h.graphql<{ webhookSubscriptionCreate: { userErrors: unknown[] } }>(SUBSCRIBE, {
        topic,
        uri: receiver.url,
      });
      expect(reply.data?.webhookSubscriptionCreate.userErrors).toEqual([]);
    }
    return receiver;
  }

  const createProduct = async (product: Record<string, unknown>) =>
    (await h.merchant('POST', 'products.json', { product })).body.product as { id: number };

  it('escapes "/" in the raw body as Shopify does and signs exactly those bytes', async () => {
    const receiver = await setUp({});
    const product = await createProduct({
      title: 'Escaped',
      body_html: '<p>x</p>',
      images: [{ src: 'https://example.com/a.png' }],
    });
    const [webhook] = await receiver.waitFor(1);
    expect(webhook.rawBody).toContain('<p>x<\\/p>');
    expect(webhook.rawBody).toContain(`"gid:\\/\\/shopify\\/Product\\/${product.id}"`);
    expect(webhook.rawBody).toContain('"src":"http:\\/\\/127.0.0.1');
    expect(JSON.stringify(JSON.parse(webhook.rawBody))).not.toBe(webhook.rawBody);
    const hmac = (bytes: string) => createHmac('sha256', h.appSecret).update(bytes, 'utf8').digest('base64');
    expect(webhook.headers['x-shopify-hmac-sha256']).toBe(hmac(webhook.rawBody));
    expect(webhook.headers['x-shopify-hmac-sha256']).not.toBe(hmac(JSON.stringify(webhook.body)));
    expect(webhook.validation).toMatchObject({ valid: true, topic: 'PRODUCTS_CREATE' });
    expect(webhook.body).toMatchObject({ id: product.id, body_html: '<p>x</p>' });
  });

  it('is refused by a receiver that checks the HMAC over a re-serialized body', async () => {
    const receiver = await setUp({}, 'reserialized');
    await createProduct({ title: 'Re-serialized', body_html: '<p>x</p>' });
    const [webhook] = await receiver.waitFor(1);
    expect(webhook.validation).toEqual({ valid: false, reason: 'invalid_hmac' });
  });

  it('sends the captured header set: product id, nanosecond trigger time, ids, version', async () => {
    const receiver = await setUp({});
    const product = await createProduct({ title: 'Headers' });
    await h.merchant('PUT', `products/${product.id}.json`, { product: { title: 'Headers 2' } });
    await h.merchant('DELETE', `products/${product.id}.json`);
    const webhooks = await receiver.waitFor(3);
    // Deliveries go out concurrently, as Shopify's do (no order is promised): the set, not the order.
    expect(webhooks.map((w) => w.headers['x-shopify-topic']).sort()).toEqual([
      'products/create',
      'products/delete',
      'products/update',
    ]);
    for (const webhook of webhooks) {
      expect(webhook.validation.valid).toBe(true);
      expect(webhook.headers).toMatchObject({
        'x-shopify-product-id': String(product.id),
        'x-shopify-shop-domain': h.shopDomain,
        'x-shopify-api-version': '2026-07',
        'content-type': 'application/json',
        'user-agent': 'Shopify-Captain-Hook',
        accept: '*/*',
      });
      expect(webhook.headers['x-shopify-triggered-at']).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{9}Z$/);
      expect(webhook.headers['x-shopify-webhook-id']).toMatch(/^[0-9a-f-]{36}$/);
      expect(webhook.headers['x-shopify-event-id']).toMatch(/^[0-9a-f-]{36}$/);
    }
    expect(webhooks.find((w) => w.headers['x-shopify-topic'] === 'products/delete')?.body).toEqual({
      id: product.id,
    });
  });

  it('delivers in the subscription version, falling forward from a retired one, and says which', async () => {
    const receiver = await setUp({ webhooks: { apiVersion: '2025-04' } });
    const listed = await h.graphql<{
      webhookSubscriptions: { nodes: Array<{ apiVersion: { handle: string } }> };
    }>('{ webhookSubscriptions(first: 5) { nodes { apiVersion { handle } } } }');
    expect(listed.data?.webhookSubscriptions.nodes[0].apiVersion.handle).toBe('2025-04');
    await createProduct({ title: 'Fell forward' });
    const [webhook] = await receiver.waitFor(1);
    expect(webhook.headers['x-shopify-api-version']).toBe('2026-01');
    expect(webhook.validation).toMatchObject({ valid: true, apiVersion: '2026-01' });
    const log = await h.control('GET', `shops/${h.shopDomain}/deliveries`);
    expect(log.body.deliveries).toMatchObject([{ apiVersion: '2026-01' }]);
  });

  it('shapes the payload by version: category and has_variants_that_requires_components from 2024-10', async () => {
    const apiVersions = ['2024-07', '2024-10', '2026-07'];
    const old = await setUp({ apiVersions, webhooks: { apiVersion: '2024-07' } });
    await createProduct({ title: 'Old shape' });
    const [oldWebhook] = await old.waitFor(1);
    expect(oldWebhook.headers['x-shopify-api-version']).toBe('2024-07');
    expect(oldWebhook.body).not.toHaveProperty('category');
    expect(oldWebhook.body).not.toHaveProperty('has_variants_that_requires_components');
    expect(oldWebhook.validation.valid).toBe(true);
    await h.close();

    const current = await setUp({ apiVersions, webhooks: { apiVersion: '2024-10' } });
    await createProduct({ title: 'New shape' });
    const [newWebhook] = await current.waitFor(1);
    expect(newWebhook.headers['x-shopify-api-version']).toBe('2024-10');
    expect(newWebhook.body).toMatchObject({ category: null, has_variants_that_requires_components: false });
  });

  it('answers Admin API paths in the requested version, or the oldest supported one, and says which', async () => {
    await setUp({});
    const token = { 'X-Shopify-Access-Token': h.accessToken, 'Content-Type': 'application/json' };
    const ask = (version: string, path: string, body?: unknown) =>
      fetch(`${h.url}/admin/api/${version}/${path}`, {
        method: body === undefined ? 'GET' : 'POST',
        headers: token,
        body: body === undefined ? undefined : JSON.stringify(body),
      });
    const shopQuery = { query: '{ shop { myshopifyDomain } }' };
    const retired = await ask('2024-01', 'graphql.json', shopQuery);
    expect(retired.status).toBe(200);
    expect(retired.headers.get('x-shopify-api-version')).toBe('2026-01');
    expect(await retired.json()).toMatchObject({ data: { shop: { myshopifyDomain: h.shopDomain } } });
    const newest = await ask('2026-10', 'graphql.json', shopQuery);
    expect(newest.headers.get('x-shopify-api-version')).toBe('2026-10');
    const rest = await ask('2025-04', 'products.json');
    expect(rest.status).toBe(200);
    expect(rest.headers.get('x-shopify-api-version')).toBe('2026-01');
    expect((await ask('unstable', 'products.json')).headers.get('x-shopify-api-version')).toBe('unstable');
    const future = await ask('2027-01', 'products.json');
    expect(future.status).toBe(404);
    expect(await future.json()).toEqual({ errors: 'Not Found' });
  });
});
