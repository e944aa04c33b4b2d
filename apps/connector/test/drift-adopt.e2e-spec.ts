import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DriftService } from '../src/drift/drift.service.js';
import { DriftReportsRepository } from '../src/drift/store/drift-reports.repository.js';
import { SkuMapRepository } from '../src/product-sync/sku-map/sku-map.repository.js';
import { call } from './support/admin-client.js';
import { eventually } from './support/connector-harness.js';
import { type SyncWorld, startSyncWorld } from './support/sync-world.js';

// The `adopt` repair end to end: a product's record loses its map row (as if the map were
// restored from an old backup), so the catalog holds a record no map row claims whose derived
// supplierSku names a product Shopify still has. The report finds it as an adoptable orphan;
// adopting it writes the map row back with that record's skuId (no second record is created)
// and syncs the product; the next report no longer lists it.
describe('drift report: adopt an orphan', () => {
  let world: SyncWorld;
  const token = `admin-${randomBytes(16).toString('hex')}`;

  beforeAll(async () => {
    world = await startSyncWorld({ env: { CONNECTOR_ADMIN_TOKEN: token } });
  });
  afterAll(async () => {
    await world?.close();
  });

  it('finds an orphan naming a product of the shop, adopts it, and the next report is clean', async () => {
    const productId = await world.createProduct({ title: 'Felt Coaster', vendor: 'Acme' });
    await world.settle(productId);
    const row = await eventually(async () => {
      const found = (await world.mapRows(productId)).find((r) => r.shopify_variant_id === null);
      return found?.state === 'live' && found.sku_id !== null && found;
    }, 30_000);
    const skuId = row.sku_id as string;
    const supplierSku = row.supplier_sku as string;
    const app = world.harness.connector.app;
    expect(await app.get(SkuMapRepository).forget(world.shop.domain, [supplierSku])).toBe(1);

    const service = app.get(DriftService);
    const drift = await service.report(world.shop.domain);
    const findings = await app.get(DriftReportsRepository).findingsOf(drift.report.id);
    const orphan = findings.find((f) => f.kind === 'orphan');
    expect(orphan?.finding).toMatchObject({ skuId, supplierSku, productId, repair: 'adopt' });

    const repaired = await call<{ repairs: Array<{ kind: string; outcome: string; reason?: string }> }>(
      world.harness.url,
      'POST',
      `/admin/drift/${drift.report.id}/repairs`,
      token,
      { kind: 'orphan' },
    );
    expect(repaired.status).toBe(200);
    expect(repaired.body.repairs.map((r) => [r.kind, r.outcome])).toEqual([['orphan', 'adopted']]);

    // The map claims the same record again (nothing created twice), and the product's sync ran.
    const claimed = await eventually(async () => {
      const found = (await world.mapRows(productId)).find((r) => r.shopify_variant_id === null);
      return found?.state === 'live' && found.sku_id === skuId && found;
    }, 30_000);
    expect(claimed.supplier_sku).toBe(supplierSku);
    await world.settle(productId);
    const next = await service.report(world.shop.domain);
    const keys = (await app.get(DriftReportsRepository).findingsOf(next.report.id)).map((f) => f.key);
    expect(keys).not.toContain(`orphan:${skuId}`);
    expect(next.report.counts.orphan).toBe(0);
    expect((await world.catalogRecord(skuId))?.supplierSku).toBe(supplierSku);

    // Adopting again: the finding is already repaired, nothing is claimed twice.
    const again = await call<{ repairs: Array<{ outcome: string }> }>(
      world.harness.url,
      'POST',
      `/admin/drift/${drift.report.id}/repairs`,
      token,
      { kind: 'orphan' },
    );
    expect(again.body.repairs.map((r) => r.outcome)).toEqual(['already-repaired']);
  });
});
