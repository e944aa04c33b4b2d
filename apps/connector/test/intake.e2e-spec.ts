import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EnqueueBatcher } from '../src/intake/enqueue-batcher.service.js';
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
    expect(answer).toMatchObject({ status: 200, body: { status: 'accepted', webhookId, queued: true } });
    const [row] = await harness.inbox(shop.domain, productId);
    expect(row).toMatchObject({
      webhook_id: webhookId,
      event_id: eventId,
      triggered_at: '2026-11-23T10:00:00.123456789Z',
      topic: 'products/update',
      product_id: productId,
    });
    // The answer waited for the insert only; the enqueue follows within the flush interval.
    await eventually(async () => (await harness.inbox(shop.domain, productId))[0]?.enqueued_at ?? false);
    const done = await eventually(async () => {
      const [current] = await harness.inbox(shop.domain, productId);
      return current?.state === 'done' && current;
    });
    expect(done.outcome).toBe('synced');
    expect(productReads(await sandboxes.adminRequests(shop), productId)).toBe(1);
  });

  it('answers a replay (same webhook id) 200 and does nothing more', async () => {
    const productId = '7390000555001';
    const body = productUpdateBody(productId, now());
    const webhookId = randomUUID();
    const first = await harness.deliver({ shop, body, webhookId });
    expect(first.body).toMatchObject({ status: 'accepted' });
    await eventually(async () => (await harness.inbox(shop.domain, productId))[0]?.state === 'done');
    const readsBefore = productReads(await sandboxes.adminRequests(shop), productId);
    const again = await harness.deliver({ shop, body, webhookId, eventId: randomUUID() });
    expect(again).toMatchObject({ status: 200, body: { status: 'duplicate', webhookId } });
    expect(await harness.inbox(shop.domain, productId)).toHaveLength(1);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(productReads(await sandboxes.adminRequests(shop), productId)).toBe(readsBefore);
  });

  it('enqueues on a replay a stored delivery whose enqueue never happened', async () => {
    const created = await sandboxes.merchant(shop, 'POST', 'products.json', {
      product: { title: 'Stored, never queued' },
    });
    const productId = String((created.body.product as { id: number }).id);
    const webhookId = randomUUID();
    // Stored just now and never enqueued (a crash before the flush): the sweeper would wait.
    await harness.db.query(
      `INSERT INTO "${harness.schema}".inbox (shop, webhook_id, topic, product_id, body_bytes, state, received_at)
       VALUES ($1, $2, 'products/update', $3, 0, 'received', now())`,
      [shop.domain, webhookId, productId],
    );
    const again = await harness.deliver({ shop, body: productUpdateBody(productId, now()), webhookId });
    expect(again).toMatchObject({ status: 200, body: { status: 'duplicate', webhookId } });
    const done = await eventually(async () => {
      const [current] = await harness.inbox(shop.domain, productId);
      return current?.state === 'done' && current;
    });
    expect(done).toMatchObject({ webhook_id: webhookId, outcome: 'synced' });
    expect(done.enqueued_at).not.toBeNull();
  });

  it('refuses a bad or missing signature with 401 and stores nothing', async () => {
    const productId = '7390000555002';
    const body = productUpdateBody(productId, now());
    const wrong = await harness.deliver({ shop, body, secret: 'not-the-secret' });
    expect(wrong.status).toBe(401);
    expect(wrong.body).toMatchObject({ error: { code: 'invalid_signature' } });
    expect((wrong.body.error as { requestId: string }).requestId).toMatch(/\S/);
    const missing = await harness.deliver({ shop, body, headers: { 'X-Shopify-Hmac-Sha256': undefined } });
    expect(missing.status).toBe(401);
    expect(missing.body).toMatchObject({ error: { code: 'missing_signature' } });
    expect(await harness.inbox(shop.domain, productId)).toEqual([]);
  });

  it('checks the exact raw bytes: the same JSON re-serialised would not match', async () => {
    const productId = '7390000555003';
    const raw = productUpdateBody(productId, now());
    const reserialised = JSON.stringify(JSON.parse(raw));
    expect(raw).toContain('\\/');
    expect(reserialised).not.toBe(raw);
    expect(sign(reserialised, shop.webhookSecrets[0] as string)).not.toBe(
      sign(raw, shop.webhookSecrets[0] as string),
    );
    const signature = sign(raw, shop.webhookSecrets[0] as string);
    const tampered = await harness.deliver({
      shop,
      body: reserialised,
      headers: { 'X-Shopify-Hmac-Sha256': signature },
    });
    expect(tampered.status).toBe(401);
    const genuine = await harness.deliver({ shop, body: raw });
    expect(genuine.status).toBe(200);
    const [row] = await harness.inbox(shop.domain, productId);
    expect(row?.body?.toString('utf8')).toBe(raw);
  });

  it('accepts the old and the new secret during a rotation, and nothing else', async () => {
    const body = productUpdateBody('7390000555004', now());
    expect((await harness.deliver({ shop: rotated, body, secret: 'old-secret-value' })).status).toBe(200);
    expect((await harness.deliver({ shop: rotated, body, secret: 'new-secret-value' })).status).toBe(200);
    expect((await harness.deliver({ shop: rotated, body, secret: shop.webhookSecrets[0] })).status).toBe(401);
    expect(await harness.inbox(rotated.domain, '7390000555004')).toHaveLength(2);
  });

  it('answers an unknown shop 404 and an unsupported topic 200, storing neither', async () => {
    const stranger = testShop();
    const body = productUpdateBody('7390000555005', now());
    const unknown = await harness.deliver({ shop: stranger, body });
    expect(unknown).toMatchObject({ status: 404, body: { error: { code: 'unknown_shop' } } });
    const topic = await harness.deliver({ shop, body, topic: 'orders/create' });
    expect(topic).toMatchObject({
      status: 200,
      body: { status: 'ignored', reason: 'unsupported_topic', topic: 'orders/create' },
    });
    expect(await harness.inbox(stranger.domain)).toEqual([]);
    expect(await harness.inbox(shop.domain, '7390000555005')).toEqual([]);
  });

  it('answers a collection delivery without storing it; a shop whose mapping scopes no collection asks no walk', async () => {
    const body = JSON.stringify({ id: 7390000555099, handle: 'summer', updated_at: now() });
    const answer = await harness.deliver({ shop, body, topic: 'collections/update' });
    expect(answer).toMatchObject({ status: 200, body: { status: 'collection', walk: false } });
    expect(await harness.inbox(shop.domain, '7390000555099')).toEqual([]);
  });

  it('keeps a signed delivery it cannot use, and says why (again on a replay)', async () => {
    const webhookId = randomUUID();
    const broken = '{"id": 7390000555006, "title": ';
    const first = await harness.deliver({ shop, body: broken, webhookId });
    expect(first).toMatchObject({ status: 400, body: { error: { code: 'malformed_json' } } });
    const replay = await harness.deliver({ shop, body: broken, webhookId });
    expect(replay).toMatchObject({ status: 400, body: { error: { code: 'malformed_json' } } });
    const noId = await harness.deliver({ shop, body: '{"title":"no id"}' });
    expect(noId).toMatchObject({ status: 422, body: { error: { code: 'invalid_payload' } } });
    const missingId = await harness.deliver({
      shop,
      body: productUpdateBody('7390000555007', now()),
      headers: { 'X-Shopify-Webhook-Id': undefined },
    });
    expect(missingId).toMatchObject({
      status: 400,
      body: { error: { code: 'missing_header', details: { header: 'X-Shopify-Webhook-Id' } } },
    });
    const rows = (await harness.inbox(shop.domain)).filter((row) => row.state === 'rejected');
    const kept = rows.find((row) => row.webhook_id === webhookId);
    expect(kept).toMatchObject({ outcome: 'malformed_json', product_id: null });
    expect(kept?.body?.toString('utf8')).toBe(broken);
    expect(rows.filter((row) => row.webhook_id === webhookId)).toHaveLength(1);
  });

  it('refuses a webhook id, event id or topic over 255 characters with 400, after the signature', async () => {
    const productId = '7390000555011';
    const body = productUpdateBody(productId, now());
    const tooLong: Array<[string, string]> = [
      ['X-Shopify-Webhook-Id', 'w'.repeat(7 * 1024)],
      ['X-Shopify-Event-Id', 'e'.repeat(256)],
      ['X-Shopify-Topic', `products/${'x'.repeat(247)}`],
    ];
    for (const [header, value] of tooLong) {
      const answer = await harness.deliver({ shop, body, headers: { [header]: value } });
      expect(answer).toMatchObject({
        status: 400,
        body: { error: { code: 'invalid_header', details: { header } } },
      });
      const unsigned = await harness.deliver({
        shop,
        body,
        secret: 'not-the-secret',
        headers: { [header]: value },
      });
      expect(unsigned).toMatchObject({ status: 401, body: { error: { code: 'invalid_signature' } } });
    }
    expect(await harness.inbox(shop.domain, productId)).toEqual([]);
    const longest = await harness.deliver({
      shop,
      body,
      webhookId: 'w'.repeat(255),
      eventId: 'e'.repeat(255),
    });
    expect(longest).toMatchObject({ status: 200, body: { status: 'accepted' } });
  });

  it('keeps ids beyond 2^53 exact', async () => {
    const productId = '9007199254740993';
    const answer = await harness.deliver({ shop, body: productUpdateBody(productId, now()) });
    expect(answer.status).toBe(200);
    const [row] = await harness.inbox(shop.domain, productId);
    expect(row?.product_id).toBe(productId);
    const done = await eventually(async () => {
      const [current] = await harness.inbox(shop.domain, productId);
      return current?.state === 'done' && current;
    });
    expect(done.outcome).toBe('not_found');
  });

  it('answers unknown routes in its own error shape', async () => {
    const response = await fetch(`${harness.url}/webhooks/nowhere`, { method: 'POST' });
    expect(response.status).toBe(404);
    expect(await response.json()).toMatchObject({ error: { code: 'not_found' } });
  });
});

// Two connectors in one process share TypeORM's data source registry, so the one shut down here
// is not running beside another: the second starts once the first has stopped.
describe('webhook intake across a shutdown', () => {
  let sandboxes: Sandboxes;
  let first: ConnectorHarness | undefined;
  let second: ConnectorHarness | undefined;
  const shop = testShop();

  beforeAll(async () => {
    sandboxes = await startSandboxes();
    await sandboxes.addShop(shop);
  });
  afterAll(async () => {
    await second?.close();
    await first?.close();
    await sandboxes?.close();
  });

  it('enqueues the deliveries it holds before it stops', async () => {
    const productId = '7390000555010';
    const options = {
      shops: [shop],
      catalogUrl: sandboxes.catalog.url,
      catalogApiKey: (await sandboxes.account()).apiKey,
      shopifyFetch: sandboxes.shopifyFetch,
    };
    first = await startConnector({ ...options, env: { CONNECTOR_INBOX_ENQUEUE_FLUSH_MS: '1000' } });
    const answer = await first.deliver({
      shop,
      body: productUpdateBody(productId, new Date().toISOString()),
    });
    expect(answer.body).toMatchObject({ status: 'accepted', queued: true });
    expect(first.connector.app.get(EnqueueBatcher).pending).toBe(1);
    await first.connector.close();
    const [row] = await first.inbox(shop.domain, productId);
    expect(row).toMatchObject({ state: 'received' });
    expect(row?.enqueued_at).not.toBeNull();
    // The queued job runs on the next connector (the sweeper would wait 5 minutes).
    second = await startConnector({ ...options, schema: first.schema });
    const done = await eventually(async () => {
      const [current] = await (second as ConnectorHarness).inbox(shop.domain, productId);
      return current?.state === 'done' && current;
    });
    expect(done.outcome).toBe('not_found');
  });
});

describe('webhook intake of oversized bodies', () => {
  let sandboxes: Sandboxes;
  let harness: ConnectorHarness;
  const shop = testShop();

  beforeAll(async () => {
    sandboxes = await startSandboxes();
    await sandboxes.addShop(shop);
    const account = await sandboxes.account();
    harness = await startConnector({
      shops: [shop],
      catalogUrl: sandboxes.catalog.url,
      catalogApiKey: account.apiKey,
      shopifyFetch: sandboxes.shopifyFetch,
      env: { CONNECTOR_WEBHOOK_BODY_LIMIT_BYTES: '2048' },
    });
  });
  afterAll(async () => {
    await harness?.close();
    await sandboxes?.close();
  });

  const large = (prefix: string, size: number) => `${prefix}"body_html":"${'x'.repeat(size)}"}`;

  it('keeps a large signed delivery by its product id, without its body, and syncs it', async () => {
    const created = await sandboxes.merchant(shop, 'POST', 'products.json', {
      product: { title: 'Big one' },
    });
    const productId = String((created.body.product as { id: number }).id);
    const body = large(
      `{"admin_graphql_api_id":"gid:\\/\\/shopify\\/Product\\/${productId}","id":${productId},`,
      5_000,
    );
    const answer = await harness.deliver({ shop, body });
    expect(answer).toMatchObject({ status: 200, body: { status: 'accepted' } });
    const [row] = await harness.inbox(shop.domain, productId);
    expect(row).toMatchObject({ body: null, body_truncated: true, product_id: productId });
    const done = await eventually(async () => {
      const [current] = await harness.inbox(shop.domain, productId);
      return current?.state === 'done' && current;
    });
    expect(done.outcome).toBe('synced');
  });

  it('refuses with 413 a large body whose product cannot be told, keeping a trace', async () => {
    const webhookId = randomUUID();
    const answer = await harness.deliver({ shop, body: large('{"title":"?",', 5_000), webhookId });
    expect(answer).toMatchObject({ status: 413, body: { error: { code: 'payload_too_large' } } });
    const row = (await harness.inbox(shop.domain)).find((r) => r.webhook_id === webhookId);
    expect(row).toMatchObject({ state: 'rejected', outcome: 'payload_too_large', body: null });
  });

  it('refuses with 413 a body beyond the hard limit, storing nothing', async () => {
    const webhookId = randomUUID();
    const answer = await harness.deliver({ shop, body: large('{"id":1,', 40_000), webhookId });
    expect(answer).toMatchObject({ status: 413, body: { error: { code: 'payload_too_large' } } });
    expect((await harness.inbox(shop.domain)).find((r) => r.webhook_id === webhookId)).toBeUndefined();
  });
});
