import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DriftScanner, ShopMappings } from '../src/index.js';
import { eventually } from './support/connector-harness.js';
import { attribute, type MapRow, type SyncWorld, startSyncWorld } from './support/sync-world.js';

const simple = (title: string, productType: string) => ({
  title,
  vendor: 'Acme',
  product_type: productType,
  variants: [{ price: '10.00' }],
});

const liveRow = (world: SyncWorld, productId: string) =>
  eventually(async () => {
    const [row] = await world.mapRows(productId);
    return row?.state === 'live' && row;
  }, 30_000);

// Configuration drift: a changed mapping resyncs exactly the products whose records it changes.
describe('configuration drift', () => {
  let world: SyncWorld;

  beforeAll(async () => {
    world = await startSyncWorld();
  });
  afterAll(async () => {
    await world?.close();
  });

  it('resyncs the products a mapping change affects, and nothing else', async () => {
    const shirt = await world.createProduct(simple('Drift Shirt', 'Shirts'));
    const pan = await world.createProduct(simple('Drift Pan', 'Cookware'));
    const shirtRow = (await liveRow(world, shirt)) as MapRow;
    await liveRow(world, pan);
    await world.settle(shirt);
    await world.settle(pan);
    const panRuns = (await world.syncRecords(pan)).length;
    const before = attribute(await world.catalogRecord(shirtRow.sku_id as string), 'productCategory');

    // Shirts now go to another leaf of the taxonomy.
    const harness = await world.restart((yaml) =>
      yaml.replace('Shirts: apparel-tops-shirts', 'Shirts: apparel-tops-tshirts'),
    );
    const drift = await eventually(async () => {
      const runs = await world.syncRecords(shirt);
      return runs.find((r) => r.reason === 'drift' && r.outcome === 'synced');
    }, 30_000);
    expect(drift.calls.map((c) => `${c.method} ${c.path}`)).toEqual([
      `PATCH /v1/products/${shirtRow.sku_id}`,
    ]);
    const after = attribute(await world.catalogRecord(shirtRow.sku_id as string), 'productCategory');
    expect(after).not.toEqual(before);

    // The scan, asked again, finds nothing left to do; the pan was never touched.
    const mapping = harness.connector.app.get(ShopMappings).mapping(world.shop.domain);
    expect(mapping).not.toBeNull();
    if (!mapping) return;
    expect(await harness.connector.app.get(DriftScanner).scan(world.shop.domain, mapping)).toEqual([]);
    expect((await world.syncRecords(pan)).length).toBe(panRuns);
  });
});

// Delete grace and the `delete` policy for products leaving the synced statuses.
describe('delete grace and the leaving-status policy', () => {
  let world: SyncWorld;

  beforeAll(async () => {
    world = await startSyncWorld({
      env: { CONNECTOR_SYNC_DELETE_GRACE_MS: '4000', CONNECTOR_SYNC_LEAVING_STATUSES: 'delete' },
    });
  });
  afterAll(async () => {
    await world?.close();
  });

  it('waits out the grace period before deleting the catalog records of a deleted product', async () => {
    const productId = await world.createProduct(simple('Grace Chair', 'Chairs'));
    const row = (await liveRow(world, productId)) as MapRow;
    await world.settle(productId);
    await world.deleteProduct(productId);
    await world.sandboxes.shopify.sandbox.idle();
    await eventually(async () =>
      (await world.harness.inbox(world.shop.domain, productId)).some((r) => r.topic === 'products/delete'),
    );
    // Within the grace period the record is still there.
    expect(await world.catalogRecord(row.sku_id as string)).not.toBeNull();
    await eventually(async () => (await world.catalogRecord(row.sku_id as string)) === null, 30_000);
    // The map row is tombstoned once the delete answered (just after the record went).
    const rows = await eventually(async () => {
      const all = await world.mapRows(productId);
      return all.every((r) => r.state === 'tombstoned') && all;
    });
    expect(rows.map((r) => r.state)).toEqual(['tombstoned']);
  });

  it('deletes the records of a product set to draft, and creates them afresh when it is active again', async () => {
    const productId = await world.createProduct(simple('Seasonal Rug', 'Rugs'));
    const row = (await liveRow(world, productId)) as MapRow;
    await world.settle(productId);
    await world.updateProduct(productId, { status: 'draft' });
    await eventually(async () => (await world.catalogRecord(row.sku_id as string)) === null, 30_000);
    await eventually(async () => (await world.mapRows(productId)).length === 0);
    await world.updateProduct(productId, { status: 'active' });
    const again = (await liveRow(world, productId)) as MapRow;
    expect(again.sku_id).not.toBe(row.sku_id);
    expect(again.supplier_sku).toBe(row.supplier_sku);
    expect(await world.recordsWithSupplierSku(row.supplier_sku)).toHaveLength(1);
  });
});

// Shops in different currencies may share one account: prices carry the shop's currency when
// the mapping says so (the shop's `currencyCode`, read once).
describe('prices in the shop currency', () => {
  let world: SyncWorld;

  beforeAll(async () => {
    world = await startSyncWorld({
      mapping: (yaml) =>
        yaml.replace(/^ {2}price: price.*$/m, '  price: { attribute: price, currency: shop }'),
    });
  });
  afterAll(async () => {
    await world?.close();
  });

  it('sends "<amount> <shop currency>" for a PRICE entry with currency: shop', async () => {
    const productId = await world.createProduct(simple('Wool Scarf', 'Scarves'));
    const row = (await liveRow(world, productId)) as MapRow;
    const price = String(attribute(await world.catalogRecord(row.sku_id as string), 'price'));
    // The Shopify sandbox's shops are in USD (its README).
    expect(price).toMatch(/^10(\.00)? USD$/);
  });
});
