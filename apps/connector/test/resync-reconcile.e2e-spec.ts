import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { eventually } from './support/connector-harness.js';
import { attribute, type SyncWorld, startSyncWorld } from './support/sync-world.js';

// Reconciliation end to end: the Shopify sandbox drops the deliveries (delivery faults), so the
// connector never hears of an update or a delete; the scheduled reconciliation (every second
// here) finds both and the sync makes the catalog converge.
describe('reconciliation', () => {
  let world: SyncWorld;

  beforeAll(async () => {
    world = await startSyncWorld({ env: { CONNECTOR_RECONCILE_INTERVAL_MS: '1000' } });
  });
  afterAll(async () => {
    await world?.close();
  });
  beforeEach(async () => {
    await dropDeliveries(0);
  });

  const dropDeliveries = async (drop: number) => {
    const answer = await world.sandboxes.shopify.control(
      'PUT',
      `shops/${world.shop.domain}/delivery-faults`,
      {
        drop,
      },
    );
    expect(answer.status).toBeLessThan(300);
  };
  const dropped = async (productId: string, topic: string) => {
    const answer = await world.sandboxes.shopify.control(
      'GET',
      `shops/${world.shop.domain}/deliveries?topic=${topic}&state=dropped`,
    );
    const { deliveries } = answer.body as unknown as { deliveries: Array<{ productId: number }> };
    return deliveries.filter((d) => String(d.productId) === productId).length;
  };
  const ownRow = async (productId: string) =>
    eventually(async () => {
      const row = (await world.mapRows(productId)).find((r) => r.shopify_variant_id === null);
      return row?.state === 'live' && row.sku_id !== null && row;
    }, 30_000);

  it('catches an update whose webhook was dropped', async () => {
    const productId = await world.createProduct({ title: 'Canvas Tote', vendor: 'Acme' });
    await world.settle(productId);
    const row = await ownRow(productId);
    expect(attribute(await world.catalogRecord(row.sku_id as string), 'name')).toBe('Canvas Tote');

    await dropDeliveries(1);
    const before = (await world.syncRecords(productId)).length;
    await world.updateProduct(productId, { title: 'Canvas Tote XL' });
    await world.sandboxes.shopify.sandbox.idle();
    expect(await dropped(productId, 'products/update')).toBeGreaterThan(0);

    await eventually(
      async () => attribute(await world.catalogRecord(row.sku_id as string), 'name') === 'Canvas Tote XL',
      30_000,
    );
    // The change came through the reconciliation (its webhook never arrived): one PATCH.
    const after = await eventually(async () => {
      const records = (await world.syncRecords(productId)).slice(before);
      return records.some((r) => r.calls.length > 0) && records;
    });
    expect(after.map((r) => r.reason)).not.toContain('webhook');
    expect(after.flatMap((r) => r.calls.map((c) => `${c.method} ${r.reason}`))).toEqual(['PATCH reconcile']);
  });

  it('catches a delete whose webhook was dropped', async () => {
    const productId = await world.createProduct({ title: 'Felt Coaster', vendor: 'Acme' });
    await world.settle(productId);
    const row = await ownRow(productId);

    await dropDeliveries(1);
    await world.deleteProduct(productId);
    await world.sandboxes.shopify.sandbox.idle();
    expect(await dropped(productId, 'products/delete')).toBe(1);

    const records = await eventually(async () => {
      const all = await world.syncRecords(productId);
      return all.some((r) => r.calls.some((c) => c.method === 'DELETE')) && all;
    }, 30_000);
    // Deleted by the reconciliation (its webhook never arrived), and tombstoned.
    expect(records.filter((r) => r.calls.length > 0).map((r) => r.reason)).toEqual(['webhook', 'reconcile']);
    expect((await world.mapRows(productId)).map((r) => r.state)).toEqual(['tombstoned']);
    expect(await world.catalogRecord(row.sku_id as string)).toBeNull();
  });
});
