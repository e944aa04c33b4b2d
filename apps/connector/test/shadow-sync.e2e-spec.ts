import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ShopPreviewDto } from '../src/operations/admin/shop-preview.dto.js';
import { call } from './support/admin-client.js';
import { eventually } from './support/connector-harness.js';
import { type SyncWorld, startSyncWorld } from './support/sync-world.js';

const ADMIN_TOKEN = `shadow-sync-${randomBytes(8).toString('hex')}`;

interface PlannedRow {
  kind: string;
  method: string;
  path: string;
  supplier_sku: string;
  body: Record<string, unknown> | null;
  before: Record<string, unknown> | null;
  after: Record<string, unknown> | null;
}

// Issue 31, step 2 (the sync's catalog calls): a shop in shadow plans as in live, sends no
// catalog product or variant write, leaves the sku map alone, and keeps the latest plan of each
// product as its planned writes. Back in live, the same product is created for real, as planned.
describe('a shop in shadow: the sync', () => {
  let world: SyncWorld;
  const shirt = (title: string) => ({
    title,
    vendor: 'Acme',
    product_type: 'Shirts',
    body_html: '<p>Soft linen.</p>',
    options: [{ name: 'Size' }],
    variants: [
      { option1: 'Small', price: '35.00', barcode: '4006381333931', sku: `${title}-S` },
      { option1: 'M', price: '36.00', barcode: '4006381333948', sku: `${title}-M` },
    ],
  });

  beforeAll(async () => {
    world = await startSyncWorld({
      env: { CONNECTOR_ADMIN_TOKEN: ADMIN_TOKEN, CONNECTOR_MEDIA_ENABLED: 'false' },
    });
  });
  afterAll(async () => {
    await world?.close();
  });

  const mode = (value: string) =>
    call(world.harness.url, 'PUT', `/admin/shops/${world.shop.domain}/mode`, ADMIN_TOKEN, { mode: value });
  const catalogWrites = async (since: number) =>
    (await world.catalogCalls(since)).filter(
      (r) => r.method !== 'GET' && /^\/v1\/(products|variants)/.test(r.path) && !r.path.endsWith('/search'),
    );
  const planned = async (productId: string) =>
    (
      await world.harness.db.query<PlannedRow>(
        `SELECT kind, method, path, supplier_sku, body, before, after FROM "${world.harness.schema}".planned_writes
          WHERE shop = $1 AND product_id = $2 ORDER BY seq`,
        [world.shop.domain, productId],
      )
    ).rows;

  it('sends no catalog write and keeps only the latest plan per product; going live creates what was planned', async () => {
    const since = Date.now();
    expect((await mode('shadow')).status).toBe(200);
    const productId = await world.createProduct(shirt('Shadow Shirt'));
    await world.settle(productId);
    const first = await planned(productId);
    expect(first.map((row) => `${row.method} ${row.path}`)).toEqual([
      'POST /v1/products',
      'POST /v1/variants',
      'POST /v1/variants',
    ]);
    expect(first.every((row) => row.before === null && row.after !== null)).toBe(true);
    expect(await world.mapRows(productId)).toEqual([]);

    // Edited: planned again from the same unmapped state (creates), replacing the first plan.
    await world.updateProduct(productId, { title: 'Shadow Shirt Edited' });
    await world.settle(productId);
    const second = await planned(productId);
    expect(second.map((row) => row.kind)).toEqual(['createProduct', 'createVariant', 'createVariant']);
    expect(JSON.stringify(second[0]?.body)).toContain('Shadow Shirt Edited');
    expect(await catalogWrites(since)).toEqual([]);
    expect(await world.mapRows(productId)).toEqual([]);

    // The preview: counts, and each record's calls, field diffs and final state.
    const preview = await call<ShopPreviewDto>(
      world.harness.url,
      'GET',
      `/admin/shops/${world.shop.domain}/preview`,
      ADMIN_TOKEN,
    );
    expect(preview.status, preview.text).toBe(200);
    expect(preview.body).toMatchObject({
      mode: 'shadow',
      counts: { creates: 3, patches: 0, deletes: 0, total: 3 },
    });
    const records = preview.body.products.find((p) => p.productId === productId)?.records ?? [];
    expect(records.map((r) => r.calls)).toEqual([
      ['POST /v1/products'],
      ['POST /v1/variants'],
      ['POST /v1/variants'],
    ]);
    expect(records.map((r) => r.finalState)).toEqual(second.map((row) => row.after));
    expect(records[0]?.diffs).toContainEqual({ field: 'name', before: null, after: 'Shadow Shirt Edited' });
    const csv = await fetch(`${world.harness.url}/admin/shops/${world.shop.domain}/preview?format=csv`, {
      headers: { Authorization: `Bearer ${ADMIN_TOKEN}` },
    });
    expect(csv.headers.get('content-type')).toContain('text/csv');
    const lines = (await csv.text()).trimEnd().split('\r\n');
    expect(lines[0]).toBe('productId,source,supplierSku,calls,field,before,after');
    expect(lines).toContain(
      `${productId},catalog,${records[0]?.supplierSku},POST /v1/products,name,,Shadow Shirt Edited`,
    );

    // Going live: a go-live sync plans again and sends exactly the calls the last plan held.
    expect((await mode('live')).status).toBe(200);
    // The live run (a go-live sync, or a sync of the product already waiting that it joined) is
    // recorded once it finished; its map rows are live before that.
    await eventually(async () => {
      const live = (await world.mapRows(productId)).filter((row) => row.state === 'live');
      const runs = (await world.syncRecords(productId)).filter((r) => !String(r.detail).startsWith('shadow'));
      return live.length === 3 && runs.length > 0;
    });
    expect(await planned(productId)).toEqual([]);
    const sent = (await catalogWrites(since)).map((r) => `${r.method} ${r.path}`);
    expect(sent).toEqual(second.map((row) => `${row.method} ${row.path}`));
    const rows = await world.mapRows(productId);
    expect(rows.map((row) => row.snapshot)).toEqual(second.map((row) => row.after));
  });

  it('going live while deliveries keep arriving converges: every record once, at its last edit, no planned write left', async () => {
    expect((await mode('shadow')).status).toBe(200);
    const titles = ['Go Live A', 'Go Live B', 'Go Live C'];
    const productIds: string[] = [];
    for (const title of titles) productIds.push(await world.createProduct(shirt(title)));
    for (const productId of productIds) await world.settle(productId);
    for (const productId of productIds) expect(await planned(productId)).toHaveLength(3);

    // Edits keep coming while the shop switches to live (a go-live sync per planned product).
    const last = new Map<string, string>();
    const edits = (async () => {
      for (let round = 1; round <= 4; round++) {
        for (const productId of productIds) {
          const title = `Edited ${productId} #${round}`;
          await world.updateProduct(productId, { title });
          last.set(productId, title);
        }
      }
    })();
    const switched = await mode('live');
    expect(switched.status).toBe(200);
    await edits;

    for (const productId of productIds) {
      await world.settle(productId);
      const rows = await eventually(async () => {
        const live = (await world.mapRows(productId)).filter((row) => row.state === 'live');
        if (live.length !== 3) return false;
        const record = await world.catalogRecord(live[0]?.sku_id as string);
        const name = record?.attributes.find((a) => a.key === 'name')?.value;
        return name === last.get(productId) && live;
      }, 30_000);
      for (const row of rows) expect(await world.recordsWithSupplierSku(row.supplier_sku)).toHaveLength(1);
      expect(await planned(productId)).toEqual([]);
    }
    const left = await world.harness.db.query(
      `SELECT count(*)::int AS n FROM "${world.harness.schema}".planned_writes WHERE shop = $1`,
      [world.shop.domain],
    );
    expect(left.rows[0].n).toBe(0);
  });
});
