import { afterEach, describe, expect, it } from 'vitest';
import { ManualClock } from '#lib/clock';
import { type ShopifySandboxHarness, startShopifySandbox } from '#testing/shopify-sandbox';
import { createProducts, download, readBulk, runBulkQuery, waitForStatus } from './bulk-support.js';
import { WebhookReceiver } from './webhook-receiver.js';

const NESTED = '{ products { edges { node { id title variants { edges { node { id sku } } } } } } }';
const STEP = 200;
const SEVEN_DAYS = 7 * 24 * 60 * 60 * 1000;

const withTwoVariants = (i: number) => ({
  title: `Shirt ${i}`,
  options: [{ name: 'Size' }],
  variants: [
    { option1: 'S', sku: `S-${i}` },
    { option1: 'M', sku: `M-${i}` },
  ],
});

describe('bulk results: JSONL with __parentId', () => {
  let h: ShopifySandboxHarness;
  afterEach(() => h.close());

  async function completed(query: string, groupObjects: boolean) {
    const { bulkOperation } = await runBulkQuery(h, query, groupObjects);
    const done = await waitForStatus(h, bulkOperation?.id as string, ['COMPLETED']);
    return { done, file: await download(done.url as string) };
  }

  it('writes nested connection items on their own lines with __parentId, after their parent (grouped)', async () => {
    h = await startShopifySandbox({ bulk: { stepMs: 1 } });
    const ids = await createProducts(h, 2, withTwoVariants);
    const { done, file } = await completed(NESTED, true);
    expect(done).toMatchObject({ objectCount: '6', rootObjectCount: '2' });
    const product = (i: number) => `gid://shopify/Product/${ids[i]}`;
    expect(file.records.map((r) => [r.title ?? r.sku, r.__parentId ?? null])).toEqual([
      ['Shirt 0', null],
      ['S-0', product(0)],
      ['M-0', product(0)],
      ['Shirt 1', null],
      ['S-1', product(1)],
      ['M-1', product(1)],
    ]);
    // The parent line has no `variants` member; `__parentId` comes last; `/` is escaped as Shopify writes it.
    expect(file.records[0]).toEqual({ id: product(0), title: 'Shirt 0' });
    expect(Object.keys(file.records[1])).toEqual(['id', 'sku', '__parentId']);
    expect(file.text.split('\n')[0]).toBe(
      `{"id":"gid:\\/\\/shopify\\/Product\\/${ids[0]}","title":"Shirt 0"}`,
    );
  });

  it('without groupObjects (the default) still writes parents first, but not their children right after them', async () => {
    h = await startShopifySandbox({ bulk: { stepMs: 1 } });
    await createProducts(h, 3, withTwoVariants);
    const { file } = await completed(NESTED, false);
    expect(file.records.map((r) => (r.__parentId ? 'child' : 'parent'))).toEqual([
      'parent',
      'parent',
      'parent',
      ...Array(6).fill('child'),
    ]);
  });

  it('streams 1,000+ products and their variants: every object once, counts and size matching', async () => {
    h = await startShopifySandbox({ bulk: { stepMs: 2, objectsPerStep: 400 } });
    const ids = await createProducts(h, 1_005);
    const { bulkOperation } = await runBulkQuery(h, NESTED);
    const running = await waitForStatus(h, bulkOperation?.id as string, ['RUNNING', 'COMPLETED']);
    expect(['RUNNING', 'COMPLETED']).toContain(running.status);
    const done = await waitForStatus(h, bulkOperation?.id as string, ['COMPLETED']);
    expect(done).toMatchObject({ objectCount: '2010', rootObjectCount: '1005' });
    const file = await download(done.url as string);
    expect(String(file.bytes)).toBe(done.fileSize);
    expect(file.records).toHaveLength(2_010);
    const seen = new Set<string>();
    for (const record of file.records) {
      if (record.__parentId) expect(seen.has(String(record.__parentId))).toBe(true);
      seen.add(String(record.id));
    }
    const roots = file.records.filter((r) => !r.__parentId).map((r) => r.id);
    expect(roots).toEqual(ids.map((id) => `gid://shopify/Product/${id}`));
    expect(new Set(file.records.map((r) => r.id)).size).toBe(2_010);
  }, 60_000);
});

describe('bulk results: failure, expiry and links', () => {
  let h: ShopifySandboxHarness;
  let clock: ManualClock;
  afterEach(() => h.close());

  it('with bulk.failHalfway, fails half way: FAILED, INTERNAL_SERVER_ERROR, partial data only', async () => {
    h = await startShopifySandbox({ bulk: { stepMs: 1, objectsPerStep: 3, failHalfway: true } });
    await createProducts(h, 10);
    const { bulkOperation } = await runBulkQuery(h, '{ products { edges { node { id title } } } }');
    const failed = await waitForStatus(h, bulkOperation?.id as string, ['FAILED', 'COMPLETED']);
    expect(failed).toMatchObject({
      status: 'FAILED',
      errorCode: 'INTERNAL_SERVER_ERROR',
      objectCount: '5',
      url: null,
      fileSize: null,
      completedAt: null,
    });
    const partial = await download(failed.partialDataUrl as string);
    expect(partial.records.map((r) => r.title)).toEqual(['Bulk 0', 'Bulk 1', 'Bulk 2', 'Bulk 3', 'Bulk 4']);
  });

  it('keeps results 7 days on the sandbox clock, then EXPIRED with no url; the old link answers ExpiredToken', async () => {
    clock = new ManualClock(Date.UTC(2026, 6, 1));
    h = await startShopifySandbox({ clock });
    await createProducts(h, 2);
    const { bulkOperation } = await runBulkQuery(h, '{ products { edges { node { id } } } }');
    const id = bulkOperation?.id as string;
    await clock.advance(STEP * 2);
    const done = await readBulk(h, id);
    const link = new URL(done?.url as string);
    // Whole seconds, rounded down: the results never outlive the 7 days.
    expect(Number(link.searchParams.get('Expires'))).toBe(
      Math.floor((Date.UTC(2026, 6, 1) + STEP * 2 + SEVEN_DAYS) / 1000),
    );
    link.searchParams.set('Expires', String(Number(link.searchParams.get('Expires')) + 3600));
    const tampered = await fetch(link);
    expect(tampered.status).toBe(403);
    expect(await tampered.text()).toContain('<Code>SignatureDoesNotMatch</Code>');
    const expiresAt = Math.floor((Date.UTC(2026, 6, 1) + STEP * 2 + SEVEN_DAYS) / 1000) * 1000;
    await clock.advance(expiresAt - clock.now() - 1);
    expect((await readBulk(h, id))?.status).toBe('COMPLETED');
    expect((await download(done?.url as string)).records).toHaveLength(2);
    await clock.advance(1);
    expect(await readBulk(h, id)).toMatchObject({
      status: 'EXPIRED',
      url: null,
      partialDataUrl: null,
      fileSize: null,
    });
    const expired = await fetch(done?.url as string);
    expect(expired.status).toBe(400);
    expect(await expired.text()).toContain('<Code>ExpiredToken</Code>');
  });

  it('with bulk.urlTtlMs, the link and the results expire early', async () => {
    clock = new ManualClock();
    h = await startShopifySandbox({ clock, bulk: { urlTtlMs: 60_000 } });
    await createProducts(h, 1);
    const { bulkOperation } = await runBulkQuery(h, '{ products { edges { node { id } } } }');
    await clock.advance(STEP * 2);
    const done = await readBulk(h, bulkOperation?.id as string);
    expect((await download(done?.url as string)).status).toBe(200);
    await clock.advance(61_000);
    expect((await readBulk(h, bulkOperation?.id as string))?.status).toBe('EXPIRED');
    expect((await fetch(done?.url as string)).status).toBe(400);
  });
});

describe('bulk_operations/finish', () => {
  let h: ShopifySandboxHarness;
  let receiver: WebhookReceiver;
  afterEach(async () => {
    await receiver.close();
    await h.close();
  });

  it('is sent, signed, to a BULK_OPERATIONS_FINISH subscription when a run completes or fails', async () => {
    const clock = new ManualClock(Date.UTC(2026, 6, 1, 16));
    h = await startShopifySandbox({ clock, bulk: { failHalfway: true } });
    receiver = await WebhookReceiver.start(h.appSecret);
    const subscribed = await h.graphql(
      `mutation($uri: String!) { webhookSubscriptionCreate(topic: BULK_OPERATIONS_FINISH, webhookSubscription: { uri: $uri }) { userErrors { message } } }`,
      { uri: receiver.url },
    );
    expect(subscribed.data).toEqual({ webhookSubscriptionCreate: { userErrors: [] } });
    await createProducts(h, 4);
    const { bulkOperation } = await runBulkQuery(h, '{ products { edges { node { id } } } }');
    await clock.advance(STEP * 2);
    const [webhook] = await receiver.waitFor(1);
    expect(webhook.validation.valid).toBe(true);
    expect(webhook.headers['x-shopify-topic']).toBe('bulk_operations/finish');
    expect(webhook.headers['x-shopify-product-id']).toBeUndefined();
    expect(webhook.body).toEqual({
      admin_graphql_api_id: bulkOperation?.id,
      completed_at: null,
      created_at: '2026-07-01T12:00:00-04:00',
      error_code: 'internal_server_error',
      status: 'failed',
      type: 'query',
    });
    expect(webhook.rawBody).toContain('"gid:\\/\\/shopify\\/BulkOperation\\/');
    await h.sandbox.idle();
    const [delivery] = await h.deliveries({ topic: 'bulk_operations/finish' });
    expect(delivery).toMatchObject({ state: 'delivered', productId: null, payload: webhook.body });
  });

  it('carries completed_at in the shop time zone for a completed run', async () => {
    const clock = new ManualClock(Date.UTC(2026, 0, 15, 9));
    h = await startShopifySandbox({ clock });
    receiver = await WebhookReceiver.start(h.appSecret);
    await h.graphql(
      `mutation($uri: String!) { webhookSubscriptionCreate(topic: BULK_OPERATIONS_FINISH, webhookSubscription: { uri: $uri }) { userErrors { message } } }`,
      { uri: receiver.url },
    );
    const { bulkOperation } = await runBulkQuery(h, '{ products { edges { node { id } } } }');
    await clock.advance(STEP * 2);
    const [webhook] = await receiver.waitFor(1);
    expect(webhook.body).toEqual({
      admin_graphql_api_id: bulkOperation?.id,
      completed_at: '2026-01-15T04:00:00-05:00',
      created_at: '2026-01-15T04:00:00-05:00',
      error_code: null,
      status: 'completed',
      type: 'query',
    });
  });
});
