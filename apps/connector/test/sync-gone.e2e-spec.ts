import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually } from './support/connector-harness.js';
import { attribute, type MapRow, type SyncWorld, startSyncWorld, writes } from './support/sync-world.js';

// Records deleted in the catalog behind the connector's back: what a later sync of the product
// does about them.
describe('records gone from the catalog', () => {
  let world: SyncWorld;

  beforeAll(async () => {
    world = await startSyncWorld();
  });
  afterAll(async () => {
    await world?.close();
  });

  const shirt = (title: string) => ({
    title,
    vendor: 'Acme',
    product_type: 'Shirts',
    options: [{ name: 'Size' }],
    variants: [
      { option1: 'Small', price: '35.00', barcode: '4006381333931' },
      { option1: 'M', price: '36.00', barcode: '4006381333948' },
    ],
  });
  const liveRows = (productId: string, count: number) =>
    eventually(async () => {
      const rows = await world.mapRows(productId);
      const live = rows.filter((r) => r.state === 'live');
      return live.length === count && live.every((r) => r.sku_id !== null) && live;
    }, 30_000);
  /** The product's sync records once a run after the first `before` ended (failed or not). */
  const nextRecord = (productId: string, before: number) =>
    eventually(async () => {
      const records = await world.syncRecords(productId);
      return records.length > before && records;
    }, 30_000);

  it('takes a DELETE answered 404 for done, tombstones the row and makes the other deletes', async () => {
    const productId = await world.createProduct(shirt('Half Gone Shirt'));
    await world.settle(productId);
    const [parent, small, medium] = (await liveRows(productId, 3)) as [MapRow, MapRow, MapRow];
    expect((await world.account.api.delete(`/v1/variants/${small.sku_id}`)).status).toBe(200);

    const before = (await world.syncRecords(productId)).length;
    const since = Date.now();
    await world.deleteProduct(productId);
    const records = await nextRecord(productId, before);
    expect(records.slice(before).map((r) => r.outcome)).toEqual(['deleted']);
    expect(writes(await world.catalogCalls(since))).toEqual([
      'DELETE /v1/variants/{skuId}',
      'DELETE /v1/variants/{skuId}',
      'DELETE /v1/products/{skuId}',
    ]);
    expect((await world.mapRows(productId)).map((r) => r.state)).toEqual([
      'tombstoned',
      'tombstoned',
      'tombstoned',
    ]);
    expect(await world.catalogRecord(medium.sku_id as string, 'variants')).toBeNull();
    expect(await world.catalogRecord(parent.sku_id as string)).toBeNull();
    expect(records.at(-1)?.events.join('\n')).toContain('already gone');
  });

  it('recreates the parent first when only a variant was edited after the parent was deleted', async () => {
    const productId = await world.createProduct(shirt('Orphaned Shirt'));
    await world.settle(productId);
    const [parent, small, medium] = (await liveRows(productId, 3)) as [MapRow, MapRow, MapRow];
    // Somebody deletes the whole product in the catalog: its variants, then the parent.
    for (const variant of [small, medium])
      expect((await world.account.api.delete(`/v1/variants/${variant.sku_id}`)).status).toBe(200);
    expect((await world.account.api.delete(`/v1/products/${parent.sku_id}`)).status).toBe(200);

    const before = (await world.syncRecords(productId)).length;
    const since = Date.now();
    const read = await world.sandboxes.merchant(world.shop, 'GET', `products/${productId}.json`);
    const variants = (read.body.product as { variants: Array<{ id: number }> }).variants;
    await world.updateProduct(productId, {
      variants: [
        { id: variants[0]?.id, price: '39.00' },
        { id: variants[1]?.id, price: '36.00' },
      ],
    });
    const records = await nextRecord(productId, before);
    expect(records[before]?.outcome).toBe('synced');
    await world.settle(productId);
    const again = (await liveRows(productId, 3)) as [MapRow, MapRow, MapRow];
    expect((await world.syncRecords(productId)).slice(before).map((r) => r.outcome)).not.toContain('failed');
    expect(again.map((r) => r.sku_id)).not.toContain(parent.sku_id);
    expect(again.map((r) => r.sku_id)).not.toContain(small.sku_id);
    // Parent first: its create comes before the variants'.
    const created = writes(await world.catalogCalls(since)).filter((c) => c.startsWith('POST'));
    expect(created).toEqual(['POST /v1/products', 'POST /v1/variants', 'POST /v1/variants']);
    expect(
      String(attribute(await world.catalogRecord(again[1].sku_id as string, 'variants'), 'price')),
    ).toContain('39');
    for (const row of again) expect(await world.recordsWithSupplierSku(row.supplier_sku)).toHaveLength(1);
  });

  it('recreates the parent first when a variant is added after the parent was deleted (parent_not_found)', async () => {
    const productId = await world.createProduct(shirt('Regrown Shirt'));
    await world.settle(productId);
    const [parent, small, medium] = (await liveRows(productId, 3)) as [MapRow, MapRow, MapRow];
    for (const variant of [small, medium])
      expect((await world.account.api.delete(`/v1/variants/${variant.sku_id}`)).status).toBe(200);
    expect((await world.account.api.delete(`/v1/products/${parent.sku_id}`)).status).toBe(200);

    const before = (await world.syncRecords(productId)).length;
    const read = await world.sandboxes.merchant(world.shop, 'GET', `products/${productId}.json`);
    const variants = (read.body.product as { variants: Array<{ id: number }> }).variants;
    await world.updateProduct(productId, {
      variants: [{ id: variants[0]?.id }, { id: variants[1]?.id }, { option1: 'L', price: '37.00' }],
    });
    const records = await nextRecord(productId, before);
    expect(records[before]?.outcome).toBe('synced');
    await world.settle(productId);
    const again = (await liveRows(productId, 4)) as MapRow[];
    expect(again.map((r) => r.sku_id)).not.toContain(parent.sku_id);
    for (const row of again) expect(await world.recordsWithSupplierSku(row.supplier_sku)).toHaveLength(1);
  });
});
