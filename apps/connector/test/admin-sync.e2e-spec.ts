import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Answer, call, sample } from './support/admin-client.js';
import { eventually } from './support/connector-harness.js';
import { type MapRow, type SyncWorld, startSyncWorld } from './support/sync-world.js';

interface ProductStatus {
  shop: string;
  productId: string;
  mapRows: Array<{
    kind: string;
    supplierSku: string;
    skuId: string | null;
    state: string;
    gaps: Array<{ attribute: string; reason: string }>;
    notes: Array<{ code: string; attribute?: string }>;
  }>;
  lastSync: { outcome: string; reason: string; calls: Array<{ method: string; path: string }> } | null;
  lastError: unknown;
  catalog: {
    skuId: string;
    enrichmentStatus: string | null;
    attributeSummary: Record<string, number> | null;
  } | null;
  media: unknown;
  writeBacks: unknown;
}
interface QueueView {
  queues: Array<{ name: string; waiting: number; active: number; delayed: number; failed: number }>;
  shops: Array<{ shop: string; paused: boolean; by: string | null; reason: string | null }>;
  pauses: Array<{ scope: string; reason: string }>;
  catalog: Array<{ account: string; breaker: string; callsLastMinute: number; budgetPerMinute: number }>;
  enrichment: { checkpoint: unknown; lagSeconds: unknown; polledAt: unknown; watchlistSize: unknown };
}

// Product status, pausing and resuming syncing, and the queue and budget view, against the sync
// engine end to end (Shopify sandbox -> webhooks -> connector -> catalog sandbox).
describe('admin: product status, sync pauses, the queue view', () => {
  let world: SyncWorld;
  const token = `admin-${randomBytes(16).toString('hex')}`;
  const admin = <T = Record<string, unknown>>(method: string, path: string): Promise<Answer<T>> =>
    call<T>(world.harness.url, method, path, token);
  const shirt = (title: string) => ({
    title,
    vendor: 'Acme',
    product_type: 'Shirts',
    body_html: '<p>Soft linen.</p>',
    options: [{ name: 'Size' }],
    variants: [{ option1: 'Small', price: '35.00', barcode: '4006381333931', sku: `${title}-S` }],
  });
  const synced = async (productId: string) => {
    await world.settle(productId);
    return eventually(async () => {
      const rows = await world.mapRows(productId);
      return rows.length === 2 && rows.every((r) => r.state === 'live' && r.sku_id !== null) && rows;
    }, 30_000);
  };

  beforeAll(async () => {
    world = await startSyncWorld({
      env: { CONNECTOR_ADMIN_TOKEN: token, CONNECTOR_SYNC_PAUSE_REFRESH_MS: '100' },
    });
  });
  afterAll(async () => {
    await world?.close();
  });

  it("shows a product's status by Shopify product id, supplierSku or skuId", async () => {
    const productId = await world.createProduct(shirt('Status Shirt'));
    const [parent, variant] = (await synced(productId)) as [MapRow, MapRow];
    const byId = await admin<ProductStatus>('GET', `/admin/products/${productId}`);
    expect(byId.status).toBe(200);
    expect(byId.body).toMatchObject({
      shop: world.shop.domain,
      productId,
      lastError: null,
      writeBacks: [],
    });
    expect(byId.body.mapRows.map((r) => [r.kind, r.supplierSku, r.skuId, r.state])).toEqual([
      ['parent', parent.supplier_sku, parent.sku_id, 'live'],
      ['variant', variant.supplier_sku, variant.sku_id, 'live'],
    ]);
    expect(byId.body.lastSync).toMatchObject({ outcome: 'synced' });
    const records = await world.syncRecords(productId);
    expect(byId.body.lastSync?.calls).toEqual((records.at(-1) as { calls: unknown[] }).calls);
    expect(byId.body.catalog).toMatchObject({ skuId: parent.sku_id });
    expect(byId.body.catalog?.attributeSummary).toHaveProperty('enrichableTotal');
    for (const other of [parent.supplier_sku, variant.sku_id as string]) {
      const answer = await admin<ProductStatus>('GET', `/admin/products/${encodeURIComponent(other)}`);
      expect(answer.status, other).toBe(200);
      expect(answer.body.productId).toBe(productId);
    }
    // The web view's timeline shows the run's sync record with its catalog calls.
    const login = await fetch(`${world.harness.url}/admin/ui/login`, {
      method: 'POST',
      body: new URLSearchParams({ token }),
      redirect: 'manual',
    });
    expect(login.status).toBe(303);
    const cookie = (login.headers.get('set-cookie') ?? '').split(';')[0] as string;
    const timeline = await fetch(`${world.harness.url}/admin/ui/products/${productId}`, {
      headers: { cookie },
    });
    expect(timeline.status).toBe(200);
    const page = await timeline.text();
    expect(page).toContain('class="event-sync"');
    expect(page).toContain('sync after a webhook: synced');
    expect(page).toContain('POST /v1/products');
    expect(page).toContain('class="event-webhook"');
    const unknown = await admin<{ error: { code: string } }>('GET', '/admin/products/no-such-sku-anywhere');
    expect(unknown.status).toBe(404);
    expect(unknown.body.error.code).toBe('not_found');
    // Issue 40: a Shopify product id the connector knows nothing of (no map row, sync, failure,
    // media or write-back) is the documented 404 too, with or without its shop.
    for (const query of [`?shop=${world.shop.domain}`, '']) {
      const never = await admin<{ error: { code: string; message: string } }>(
        'GET',
        `/admin/products/999999999999${query}`,
      );
      expect(never.status, never.text).toBe(404);
      expect(never.body.error).toMatchObject({
        code: 'not_found',
        message: 'No product known as 999999999999.',
      });
    }
  });

  it("shows the sync's notes and mapping gaps on the product's map rows", async () => {
    const productId = await world.createProduct({
      title: 'Nameless Status Cup',
      variants: [{ price: '4.00' }],
    });
    await world.settle(productId);
    await eventually(async () => (await world.mapRows(productId)).some((r) => r.state === 'live'), 30_000);
    const status = await admin<ProductStatus>('GET', `/admin/products/${productId}`);
    expect(status.status).toBe(200);
    expect(status.body).toHaveProperty('media');
    const [row] = status.body.mapRows;
    expect(status.body.mapRows).toHaveLength(1);
    expect(row?.gaps).toEqual([]);
    expect(row?.notes).toContainEqual(
      expect.objectContaining({ code: 'enrichment-will-fail', attribute: 'productModel' }),
    );

    // An option value the catalog does not know: the variant's row shows the mapping gap.
    const giant = await world.createProduct({
      title: 'Giant Status Tee',
      vendor: 'Acme',
      options: [{ name: 'Size' }],
      variants: [
        { option1: 'Gigantic', price: '20.00' },
        { option1: 'L', price: '20.00' },
      ],
    });
    await world.settle(giant);
    await eventually(
      async () => (await world.mapRows(giant)).filter((r) => r.state === 'live').length === 3,
      30_000,
    );
    const tee = await admin<ProductStatus>('GET', `/admin/products/${giant}`);
    expect(tee.status).toBe(200);
    expect(tee.body.mapRows.map((r) => r.gaps.map((g) => [g.attribute, g.reason]))).toEqual([
      [],
      [['size', 'unknown-value']],
      [],
    ]);
  });

  it('pauses a shop (persisted, seen by every replica), holds its syncs, and resumes them', async () => {
    const productId = await world.createProduct(shirt('Pause Shirt'));
    await synced(productId);
    const runsBefore = (await world.syncRecords(productId)).length;

    const paused = await admin<{ pauses: Array<{ scope: string; reason: string }> }>(
      'POST',
      `/admin/sync/pause?shop=${world.shop.domain}&reason=catalog%20maintenance`,
    );
    expect(paused.status).toBe(200);
    expect(paused.body.pauses).toMatchObject([{ scope: world.shop.domain, reason: 'catalog maintenance' }]);
    // Persisted: in the connector's table, where every replica (and a restart) reads it.
    const q = `"${world.harness.schema}"`;
    const stored = await world.harness.db.query(`SELECT scope, reason FROM ${q}.sync_pauses`);
    expect(stored.rows).toEqual([{ scope: world.shop.domain, reason: 'catalog maintenance' }]);
    const view = await admin<QueueView>('GET', '/admin/queues');
    expect(view.body.shops).toEqual([
      {
        shop: world.shop.domain,
        paused: true,
        by: 'operator',
        reason: 'catalog maintenance',
        since: expect.any(String),
      },
    ]);
    const metrics = (await call(world.harness.url, 'GET', '/metrics')).text;
    expect(sample(metrics, 'connector_sync_paused', { shop: world.shop.domain, by: 'operator' })).toBe(1);

    // A change while paused: its delivery is stored, its job waits (delayed), no run happens.
    const webhooksBefore = (await world.harness.inbox(world.shop.domain, productId)).length;
    await world.updateProduct(productId, { title: 'Pause Shirt, renamed' });
    await world.sandboxes.shopify.sandbox.idle();
    await eventually(
      async () => (await world.harness.inbox(world.shop.domain, productId)).length > webhooksBefore,
    );
    await eventually(async () => {
      const queues = (await admin<QueueView>('GET', '/admin/queues')).body.queues;
      return (queues.find((q) => q.name === 'sync-product')?.delayed ?? 0) >= 1;
    });
    expect((await world.syncRecords(productId)).length).toBe(runsBefore);

    const resumed = await admin<{ resumed: boolean; pauses: unknown[] }>(
      'POST',
      `/admin/sync/resume?shop=${world.shop.domain}`,
    );
    expect(resumed.body).toEqual({ resumed: true, pauses: [], shops: [world.shop.domain] });
    await world.settle(productId);
    const runs = await world.syncRecords(productId);
    expect(runs.length).toBeGreaterThan(runsBefore);
    expect((await admin<QueueView>('GET', '/admin/queues')).body.shops[0]).toMatchObject({
      paused: false,
      by: null,
    });
    const again = await admin<{ resumed: boolean }>('POST', `/admin/sync/resume?shop=${world.shop.domain}`);
    expect(again.body.resumed).toBe(false);

    // A pause another replica took (a row in the table) is honoured here within the refresh.
    await world.harness.db.query(
      `INSERT INTO ${q}.sync_pauses (scope, reason, paused_at) VALUES ('*', 'elsewhere', now())`,
    );
    const everyShop = await eventually(async () => {
      const shops = (await admin<QueueView>('GET', '/admin/queues')).body.shops;
      return shops[0]?.paused === true && shops[0];
    });
    expect(everyShop).toMatchObject({ by: 'operator', reason: 'elsewhere' });
    expect((await admin<{ resumed: boolean }>('POST', '/admin/sync/resume')).body.resumed).toBe(true);
  });

  it('shows queue depths, catalog calls in the last minute against the budget, and the enrichment hooks', async () => {
    const productId = await world.createProduct(shirt('Budget Shirt'));
    await synced(productId);
    const view = await admin<QueueView>('GET', '/admin/queues');
    expect(view.status).toBe(200);
    expect(view.body.queues.map((q) => q.name)).toEqual(
      expect.arrayContaining(['sync-product', 'inbox-sweep', 'retention']),
    );
    for (const queue of view.body.queues) {
      for (const state of ['waiting', 'active', 'delayed', 'failed'] as const)
        expect(queue[state]).toBeGreaterThanOrEqual(0);
    }
    const [account] = view.body.catalog;
    expect(account?.account).not.toContain(world.account.apiKey);
    expect(account).toMatchObject({ breaker: 'closed', budgetPerMinute: 3000 });
    expect(account?.callsLastMinute).toBeGreaterThan(0);
    expect(view.body.enrichment).toEqual({
      checkpoint: null,
      lagSeconds: null,
      polledAt: null,
      watchlistSize: 0,
    });
    const bad = await admin<{ error: { details: { parameter: string } } }>(
      'POST',
      '/admin/sync/pause?shop=nope.myshopify.com',
    );
    expect(bad.status).toBe(400);
    expect(bad.body.error.details.parameter).toBe('shop');
  });
});
