import { afterEach, describe, expect, it } from 'vitest';
import { ManualClock } from '#lib/clock';
import {
  type SandboxOverrides,
  type ShopifySandboxHarness,
  startShopifySandbox,
} from '#testing/shopify-sandbox';
import { WebhookReceiver } from './webhook-receiver.js';

type Payload = Record<string, unknown> & { variants: Array<Record<string, unknown>> };

describe('payload details, as real deliveries carry them', () => {
  let h: ShopifySandboxHarness;
  let receiver: WebhookReceiver;
  afterEach(async () => {
    await receiver.close();
    await h.close();
  });

  async function setUp(overrides: SandboxOverrides = {}) {
    // Deliveries are counted per write here: one per write, no update after a create (asked by name).
    h = await startShopifySandbox({
      ...overrides,
      webhooks: { mergeWindowMs: 0, updateAfterCreate: false, ...overrides.webhooks },
    });
    receiver = await WebhookReceiver.start(h.appSecret);
    await h.graphql(
      'mutation($uri: String!) { webhookSubscriptionCreate(topic: PRODUCTS_CREATE, webhookSubscription: { uri: $uri }) { userErrors { message } } }',
      { uri: receiver.url },
    );
  }

  const create = (product: Record<string, unknown>) => h.merchant('POST', 'products.json', { product });

  it('writes empty body_html, product_type and tags as "" for some products and null for others', async () => {
    await setUp();
    const ids: number[] = [];
    for (let i = 0; i < 16; i++)
      ids.push(((await create({ title: `Bare ${i}` })).body.product as { id: number }).id);
    const webhooks = await receiver.waitFor(16);
    const forms = new Map<number, unknown>();
    for (const webhook of webhooks) {
      const body = webhook.body as Payload;
      expect(webhook.validation.valid).toBe(true);
      expect([body.product_type, body.tags]).toEqual([body.body_html, body.body_html]);
      forms.set(body.id as number, body.body_html);
    }
    const seen = new Set(forms.values());
    expect(seen).toEqual(new Set(['', null]));
    // The same product keeps its form: in the merchant API's answer too.
    for (const id of ids.slice(0, 4)) {
      const read = (await h.merchant('GET', `products/${id}.json`)).body.product as Payload;
      expect(read.body_html).toBe(forms.get(id));
    }
  });

  it('writes one form only when asked for by name (emptyFields: empty-string)', async () => {
    await setUp({ emptyFields: 'empty-string' });
    for (let i = 0; i < 6; i++) await create({ title: `Bare ${i}` });
    const webhooks = await receiver.waitFor(6);
    for (const webhook of webhooks) {
      expect(webhook.body).toMatchObject({ body_html: '', product_type: '', tags: '' });
    }
  });

  it('reports old_inventory_quantity equal to inventory_quantity on create, and published_scope global', async () => {
    await setUp();
    await create({ title: 'Stocked', variants: [{ sku: 'S-1', inventory_quantity: 4 }] });
    const [webhook] = await receiver.waitFor(1);
    const body = webhook.body as Payload;
    expect(body.variants[0]).toMatchObject({ inventory_quantity: 4, old_inventory_quantity: 4 });
    expect(body.published_scope).toBe('global');
  });

  it('writes times in the shop zone with its daylight-saving offset', async () => {
    const clock = new ManualClock(Date.UTC(2026, 0, 15, 12));
    await setUp({ clock });
    await create({ title: 'Winter' });
    await clock.advance(Date.UTC(2026, 6, 15, 12) - Date.UTC(2026, 0, 15, 12));
    await create({ title: 'Summer' });
    const [winter, summer] = await receiver.waitFor(2);
    expect(winter.body.created_at).toBe('2026-01-15T07:00:00-05:00');
    expect(summer.body.created_at).toBe('2026-07-15T08:00:00-04:00');
    const shop = await h.graphql<{ shop: Record<string, unknown> }>(
      '{ shop { ianaTimezone timezoneOffset timezoneOffsetMinutes timezoneAbbreviation } }',
    );
    expect(shop.data?.shop).toEqual({
      ianaTimezone: 'America/New_York',
      timezoneOffset: '-0400',
      timezoneOffsetMinutes: -240,
      timezoneAbbreviation: 'EDT',
    });
  });

  it('normalises prices to two decimals and refuses 1e30 with a 422, changing nothing', async () => {
    await setUp();
    const created = await create({
      title: 'Priced',
      options: [{ name: 'Size' }],
      variants: [
        { option1: 'S', price: 19.9, compare_at_price: '25' },
        { option1: 'M', price: '0.125' },
      ],
    });
    expect(created.status).toBe(201);
    const product = created.body.product as Payload & { id: number };
    expect(product.variants).toMatchObject([
      { price: '19.90', compare_at_price: '25.00' },
      { price: '0.13', compare_at_price: null },
    ]);
    const refused = await create({ title: 'Too dear', variants: [{ price: 1e30 }] });
    expect(refused.status).toBe(422);
    expect(refused.body).toEqual({
      errors: { variants: ['variant 1: price must be less than 1000000000000000000'] },
    });
    const update = await h.merchant('PUT', `products/${product.id}.json`, {
      product: { variants: [{ id: product.variants[0].id, price: '1e30' }] },
    });
    expect(update.status).toBe(422);
    expect(update.body.errors).toEqual({
      variants: ['variant 1: price must be less than 1000000000000000000'],
    });
    const read = (await h.merchant('GET', `products/${product.id}.json`)).body.product as Payload;
    expect(read.variants[0].price).toBe('19.90');
    const negative = await create({ title: 'Negative', variants: [{ price: '-1' }] });
    expect(negative.body.errors).toEqual({
      variants: ['variant 1: price must be greater than or equal to 0'],
    });
    await h.sandbox.idle();
    expect(receiver.received.map((w) => w.body.title)).toEqual(['Priced']);
  });
});
