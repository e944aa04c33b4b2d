import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ProductSyncPlanDto, ProductSyncQueuedDto } from '../src/operations/admin/product-sync.dto.js';
import { call } from './support/admin-client.js';
import { eventually } from './support/connector-harness.js';
import { type SyncWorld, startSyncWorld } from './support/sync-world.js';

const ADMIN_TOKEN = `product-sync-${randomBytes(8).toString('hex')}`;

// Issue 31, dry runs: `POST /admin/products/{id}/sync?dryRun=true` answers the calls the
// product's sync would send, planned by the shadow path, and sends nothing; the real sync then
// sends exactly those calls. Without dryRun the route runs the product's sync (reason operator).
describe('POST /admin/products/{id}/sync', () => {
  let world: SyncWorld;

  beforeAll(async () => {
    world = await startSyncWorld({
      env: { CONNECTOR_ADMIN_TOKEN: ADMIN_TOKEN, CONNECTOR_MEDIA_ENABLED: 'false' },
    });
  });
  afterAll(async () => {
    await world?.close();
  });

  const admin = <T>(method: string, path: string) => call<T>(world.harness.url, method, path, ADMIN_TOKEN);
  const catalogWrites = async (since: number) =>
    (await world.catalogCalls(since)).filter(
      (r) => r.method !== 'GET' && /^\/v1\/(products|variants)/.test(r.path) && !r.path.endsWith('/search'),
    );
  const plannedRows = async (productId: string) =>
    (
      await world.harness.db.query(
        `SELECT 1 FROM "${world.harness.schema}".planned_writes WHERE shop = $1 AND product_id = $2`,
        [world.shop.domain, productId],
      )
    ).rows.length;

  it('dryRun=true answers the plan and sends nothing; the real sync sends those calls; without dryRun it syncs', async () => {
    const shop = world.shop.domain;
    expect(
      (await call(world.harness.url, 'PUT', `/admin/shops/${shop}/mode`, ADMIN_TOKEN, { mode: 'live' }))
        .status,
    ).toBe(200);
    const productId = await world.createProduct({
      title: 'Dry Run Mug',
      vendor: 'Acme',
      product_type: 'Mugs',
      variants: [{ price: '12.00', sku: 'DRY-RUN-MUG-1', barcode: '4006381333931' }],
    });
    await world.settle(productId);
    const synced = await world.mapRows(productId);
    expect(synced.map((row) => row.state)).toEqual(['live']);

    // The rename waits behind a pause: the dry run plans it, nothing is sent.
    expect((await admin('POST', `/admin/sync/pause?shop=${shop}`)).status).toBe(200);
    await world.updateProduct(productId, { title: 'Dry Run Mug Renamed' });
    await eventually(
      async () => (await world.harness.inbox(shop, productId)).some((row) => row.state !== 'done'),
      30_000,
    );
    const since = Date.now();
    const dry = await admin<ProductSyncPlanDto>(
      'POST',
      `/admin/products/${productId}/sync?shop=${shop}&dryRun=true`,
    );
    expect(dry.status, dry.text).toBe(200);
    expect(dry.body).toMatchObject({
      shop,
      productId,
      dryRun: true,
      found: true,
      counts: { patches: 1, total: 1 },
    });
    const skuId = synced[0]?.sku_id;
    expect(dry.body.calls.map((c) => `${c.method} ${c.path}`)).toEqual([`PATCH /v1/products/${skuId}`]);
    expect(dry.body.calls[0]?.before?.name).toBe('Dry Run Mug');
    expect(dry.body.calls[0]?.after?.name).toBe('Dry Run Mug Renamed');
    expect(await catalogWrites(since)).toEqual([]);
    expect((await world.mapRows(productId)).map((row) => row.snapshot)).toEqual(
      synced.map((row) => row.snapshot),
    );
    expect(await plannedRows(productId)).toBe(0);

    // Resumed: the waiting sync sends exactly the planned calls.
    expect((await admin('POST', `/admin/sync/resume?shop=${shop}`)).status).toBe(200);
    await world.settle(productId);
    expect((await catalogWrites(since)).map((r) => `${r.method} ${r.path}`)).toEqual(
      dry.body.calls.map((c) => `${c.method} ${c.path}`),
    );
    expect((await world.mapRows(productId))[0]?.snapshot).toEqual(dry.body.calls[0]?.after);

    // Without dryRun: queued now (202), and the product's sync runs with reason operator.
    const queued = await admin<ProductSyncQueuedDto>('POST', `/admin/products/${productId}/sync`);
    expect(queued.status, queued.text).toBe(202);
    expect(queued.body).toMatchObject({ shop, productId, dryRun: false, queued: true, reason: 'operator' });
    await eventually(
      async () => (await world.syncRecords(productId)).some((r) => r.reason === 'operator'),
      30_000,
    );
    const operator = (await world.syncRecords(productId)).find((r) => r.reason === 'operator');
    expect(operator?.outcome).toBe('synced');

    // Bad requests name their parameter.
    const bad = await admin<{ details?: { parameter?: string } }>(
      'POST',
      `/admin/products/${productId}/sync?dryRun=yes`,
    );
    expect(bad.status).toBe(400);
  });

  // Issue 40: a product whose catalog record was deleted behind the connector. The dry run checks
  // that the mapped records exist (one search) and plans the create the operator's sync sends.
  it('dryRun=true plans the create of a record deleted in the catalog (one search, nothing written); the sync sends it', async () => {
    const shop = world.shop.domain;
    expect(
      (await call(world.harness.url, 'PUT', `/admin/shops/${shop}/mode`, ADMIN_TOKEN, { mode: 'live' }))
        .status,
    ).toBe(200);
    const productId = await world.createProduct({
      title: 'Vanished Mug',
      vendor: 'Acme',
      product_type: 'Mugs',
      variants: [{ price: '14.00', sku: 'VANISHED-MUG-1', barcode: '4006381333931' }],
    });
    await world.settle(productId);
    const synced = await eventually(async () => {
      const rows = await world.mapRows(productId);
      return rows.length === 1 && rows[0]?.state === 'live' && rows;
    }, 30_000);
    const [row] = synced as [(typeof synced)[number]];
    expect((await world.account.api.delete(`/v1/products/${row.sku_id}`)).status).toBe(200);

    const since = Date.now();
    const dry = await admin<ProductSyncPlanDto>(
      'POST',
      `/admin/products/${productId}/sync?shop=${shop}&dryRun=true`,
    );
    expect(dry.status, dry.text).toBe(200);
    expect(dry.body).toMatchObject({ found: true, counts: { creates: 1, patches: 0, deletes: 0, total: 1 } });
    expect(dry.body.calls.map((c) => `${c.method} ${c.path} ${c.supplierSku}`)).toEqual([
      `POST /v1/products ${row.supplier_sku}`,
    ]);
    expect(dry.body.calls[0]?.before).toBeNull();
    expect(dry.body.calls[0]?.after?.name).toBe('Vanished Mug');
    expect(dry.body.events.join('\n')).toContain('gone from the catalog');
    // One search, and nothing written: no catalog write, the map row as it was, no planned write.
    expect((await world.catalogCalls(since)).map((c) => `${c.method} ${c.path}`)).toEqual([
      'POST /v1/products/search',
    ]);
    expect(await world.mapRows(productId)).toEqual(synced);
    expect(await plannedRows(productId)).toBe(0);

    // The operator's sync sends exactly that create.
    const before = (await world.syncRecords(productId)).length;
    const sent = Date.now();
    expect((await admin('POST', `/admin/products/${productId}/sync?shop=${shop}`)).status).toBe(202);
    await eventually(async () => {
      const rows = await world.mapRows(productId);
      return (await world.syncRecords(productId)).length > before && rows[0]?.state === 'live' && rows;
    }, 30_000);
    expect((await catalogWrites(sent)).map((r) => `${r.method} ${r.path}`)).toEqual(
      dry.body.calls.map((c) => `${c.method} ${c.path}`),
    );
    const [recreated] = await world.mapRows(productId);
    expect(recreated?.sku_id).not.toBe(row.sku_id);
    expect(await world.catalogRecord(recreated?.sku_id as string)).not.toBeNull();
  });
});
