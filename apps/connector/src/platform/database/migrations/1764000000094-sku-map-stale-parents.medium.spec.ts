import { DataSource } from 'typeorm';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { CatalogClient } from '#lib/catalog-client';
import { ManualClock } from '#lib/clock';
import { uniqueId } from '#lib/testing';
import { demoMapping, product, variant } from '../../../../test/support/sync-plan-inputs.js';
import { executePlan } from '../../../product-sync/apply/plan-executor.js';
import type { SyncRun } from '../../../product-sync/apply/sync-run.js';
import { planSync } from '../../../product-sync/plan/plan-sync.js';
import { SkuMapRepository, storedRecordsOf } from '../../../product-sync/sku-map/sku-map.repository.js';
import { SkuMapRow } from '../../../product-sync/sku-map/sku-map-row.entity.js';
import { runMigrations } from '../run-migrations.js';
import { SkuMapStaleParents1764000000094 } from './1764000000094-sku-map-stale-parents.js';
import { MIGRATIONS } from './index.js';

// Real PostgreSQL, in a schema of this file's own: the map as the code before issue 40's shape
// change left it (parents a shape no longer needed tombstoned), then this migration.
const schema = uniqueId('staleparents').replace('-', '_');
const clock = new ManualClock(Date.UTC(2026, 10, 28, 12));
const shopA = `${uniqueId('shop')}.myshopify.com`;
const shopB = `${uniqueId('shop')}.myshopify.com`;
const base = (shop: string, id: string) => `${shop.replace(/\.myshopify\.com$/, '')}:product:${id}`;
const t0 = new Date(Date.UTC(2026, 9, 1));
const t1 = new Date(Date.UTC(2026, 9, 2));

/** A split product (two groups) that shrank back to two variants: one parent again. */
const shrunk = product({
  variants: [variant({ options: { Size: 'S' } }), variant({ options: { Size: 'M' } })],
});
const [v1, v2] = shrunk.variants.map((v) => v.legacyResourceId) as [string, string];
const ids = {
  shrunk: shrunk.legacyResourceId,
  madeSimple: '9100000000000000002',
  deleting: '9100000000000000003',
  deleted: '9100000000000000004',
  deletedState: '9100000000000000005',
  otherShop: '9100000000000000006',
};

interface Row {
  shop: string;
  product: string;
  variant?: string;
  kind: 'simple' | 'parent' | 'variant';
  group?: string;
  sku: string;
  parent?: string;
  skuId: string;
  tombstonedAt?: Date;
}

/** What the code before the change could have left, per case; `goes`: the stale parents. */
function rowsBefore(): Array<Row & { goes?: true }> {
  const s = base(shopA, ids.shrunk);
  const m = base(shopA, ids.madeSimple);
  const d = base(shopA, ids.deleting);
  const gone = base(shopA, ids.deleted);
  const st = base(shopA, ids.deletedState);
  const o = base(shopA, ids.otherShop);
  const oB = base(shopB, ids.otherShop);
  return [
    // One parent, split (its own row tombstoned), a variant removed once, then back to two variants.
    {
      shop: shopA,
      product: ids.shrunk,
      kind: 'parent',
      sku: s,
      skuId: 's-own',
      tombstonedAt: t1,
      goes: true,
    },
    { shop: shopA, product: ids.shrunk, kind: 'parent', group: 'g1', sku: `${s}:g1`, skuId: 's-g1' },
    { shop: shopA, product: ids.shrunk, kind: 'parent', group: 'g2', sku: `${s}:g2`, skuId: 's-g2' },
    {
      shop: shopA,
      product: ids.shrunk,
      variant: '1',
      kind: 'variant',
      sku: `${s}:v0`,
      parent: s,
      skuId: 's-v0',
      tombstonedAt: t0,
    },
    {
      shop: shopA,
      product: ids.shrunk,
      variant: v1,
      kind: 'variant',
      sku: `${s}:v1`,
      parent: `${s}:g1`,
      skuId: 's-v1',
    },
    {
      shop: shopA,
      product: ids.shrunk,
      variant: v2,
      kind: 'variant',
      sku: `${s}:v2`,
      parent: `${s}:g2`,
      skuId: 's-v2',
    },
    // Split (its own row tombstoned), then simple: a group parent kept with its group, variants tombstoned later.
    {
      shop: shopA,
      product: ids.madeSimple,
      kind: 'parent',
      sku: m,
      skuId: 'm-own',
      tombstonedAt: t0,
      goes: true,
    },
    { shop: shopA, product: ids.madeSimple, kind: 'simple', group: 'g1', sku: `${m}:g1`, skuId: 'm-g1' },
    { shop: shopA, product: ids.madeSimple, kind: 'parent', group: 'g2', sku: `${m}:g2`, skuId: 'm-g2' },
    {
      shop: shopA,
      product: ids.madeSimple,
      variant: '21',
      kind: 'variant',
      sku: `${m}:v1`,
      parent: `${m}:g1`,
      skuId: 'm-v1',
      tombstonedAt: t1,
    },
    // A deletion that failed between its two parents (variants first): kept whole for its retry.
    {
      shop: shopA,
      product: ids.deleting,
      variant: '31',
      kind: 'variant',
      sku: `${d}:v1`,
      parent: `${d}:g1`,
      skuId: 'd-v1',
      tombstonedAt: t1,
    },
    {
      shop: shopA,
      product: ids.deleting,
      kind: 'parent',
      group: 'g1',
      sku: `${d}:g1`,
      skuId: 'd-g1',
      tombstonedAt: t1,
    },
    { shop: shopA, product: ids.deleting, kind: 'parent', group: 'g2', sku: `${d}:g2`, skuId: 'd-g2' },
    // A deleted product: every row tombstoned.
    { shop: shopA, product: ids.deleted, kind: 'parent', sku: gone, skuId: 'x-own', tombstonedAt: t1 },
    {
      shop: shopA,
      product: ids.deleted,
      variant: '41',
      kind: 'variant',
      sku: `${gone}:v1`,
      parent: gone,
      skuId: 'x-v1',
      tombstonedAt: t1,
    },
    // Deleted for good in product_sync_state (whatever its rows say): untouched.
    { shop: shopA, product: ids.deletedState, kind: 'parent', sku: st, skuId: 't-own', tombstonedAt: t0 },
    { shop: shopA, product: ids.deletedState, kind: 'parent', group: 'g1', sku: `${st}:g1`, skuId: 't-g1' },
    {
      shop: shopA,
      product: ids.deletedState,
      variant: '51',
      kind: 'variant',
      sku: `${st}:v1`,
      parent: `${st}:g1`,
      skuId: 't-v1',
    },
    // Deleted in shop A; the same product id lives in shop B: neither shop's rows move.
    { shop: shopA, product: ids.otherShop, kind: 'parent', sku: o, skuId: 'o-own', tombstonedAt: t1 },
    {
      shop: shopA,
      product: ids.otherShop,
      variant: '61',
      kind: 'variant',
      sku: `${o}:v1`,
      parent: o,
      skuId: 'o-v1',
      tombstonedAt: t0,
    },
    { shop: shopB, product: ids.otherShop, kind: 'parent', group: 'g1', sku: `${oB}:g1`, skuId: 'b-g1' },
    {
      shop: shopB,
      product: ids.otherShop,
      variant: '61',
      kind: 'variant',
      sku: `${oB}:v1`,
      parent: `${oB}:g1`,
      skuId: 'b-v1',
    },
  ];
}

let before: DataSource;
let after: DataSource;

function dataSource(migrations: typeof MIGRATIONS): Promise<DataSource> {
  return new DataSource({
    type: 'postgres',
    url: inject('databaseUrl'),
    schema,
    entities: [SkuMapRow],
    migrations,
    migrationsTableName: 'migrations',
    synchronize: false,
    extra: { max: 2 },
  }).initialize();
}

const listed = async (ds: DataSource) =>
  (
    await ds.query<Array<{ shop: string; sku: string; state: string }>>(
      `SELECT shop, supplier_sku AS sku, state FROM "${schema}".sku_map
        WHERE shop = ANY($1) ORDER BY shop, supplier_sku`,
      [[shopA, shopB]],
    )
  ).map((r) => `${r.shop === shopA ? 'A' : 'B'} ${r.sku} ${r.state}`);

beforeAll(async () => {
  before = await dataSource(MIGRATIONS.filter((m) => m !== SkuMapStaleParents1764000000094));
  await runMigrations(before, schema);
  for (const row of rowsBefore()) {
    await before.query(
      `INSERT INTO "${schema}".sku_map (shop, shopify_product_id, shopify_variant_id, kind, variant_group,
         supplier_sku, parent_supplier_sku, sku_id, state, created_at, updated_at, tombstoned_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $10, $11)`,
      [
        row.shop,
        row.product,
        row.variant ?? null,
        row.kind,
        row.group ?? null,
        row.sku,
        row.parent ?? null,
        row.skuId,
        row.tombstonedAt ? 'tombstoned' : 'live',
        t0,
        row.tombstonedAt ?? null,
      ],
    );
  }
  await before.query(
    `INSERT INTO "${schema}".product_sync_state (shop, product_id, tombstoned_at) VALUES ($1, $2, $3)`,
    [shopA, ids.deletedState, t0],
  );
});

afterAll(async () => {
  await before?.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
  await before?.destroy();
  await after?.destroy();
});

describe('migration 1764000000094: stale tombstoned parents leave the sku map', () => {
  it('removes exactly the parents a shape change tombstoned, in their own shop', async () => {
    const all = rowsBefore();
    const expected = (rows: typeof all) =>
      rows
        .map((r) => `${r.shop === shopA ? 'A' : 'B'} ${r.sku} ${r.tombstonedAt ? 'tombstoned' : 'live'}`)
        .sort();
    expect([...(await listed(before))].sort()).toEqual(expected(all));

    after = await dataSource(MIGRATIONS);
    await runMigrations(after, schema);

    expect([...(await listed(after))].sort()).toEqual(expected(all.filter((r) => !r.goes)));
  });

  it('lets a product with such an old row go back to one parent', async () => {
    // The catalog as a fake: every call answers; creates hand out new skuIds.
    const sent: string[] = [];
    let next = 0;
    const answer = (line: string, skuId?: string) => {
      sent.push(line);
      return Promise.resolve({ skuId: skuId ?? `new-${++next}` });
    };
    const client = {
      createProduct: () => answer('POST /v1/products'),
      createVariant: () => answer('POST /v1/variants'),
      updateProductBySkuId: (skuId: string) => answer(`PATCH /v1/products/${skuId}`, skuId),
      updateVariant: (skuId: string) => answer(`PATCH /v1/variants/${skuId}`, skuId),
      deleteProduct: (skuId: string) => answer(`DELETE /v1/products/${skuId}`, skuId),
      deleteVariant: (skuId: string) => answer(`DELETE /v1/variants/${skuId}`, skuId),
      findBySupplierSku: () => Promise.resolve([]),
    } as unknown as CatalogClient;
    const map = new SkuMapRepository(after.getRepository(SkuMapRow), clock);
    const subject = { shop: shopA, productId: ids.shrunk };
    const rows = await map.rowsOfProduct(subject.shop, subject.productId);
    const plan = planSync({
      shop: { domain: shopA, currencyCode: 'EUR' },
      product: shrunk,
      mapping: demoMapping(),
      stored: storedRecordsOf(rows),
      largeProducts: 'split',
    });
    expect(plan.status).toBe('planned');
    const run: SyncRun = {
      jobId: null,
      reason: 'webhook',
      calls: [],
      events: [],
    };
    await executePlan(plan, {
      subject,
      run,
      client,
      map,
      rows,
      notes: plan.notes,
      deletedRows: 'tombstone',
    });

    expect(sent).toContain('POST /v1/products');
    expect(sent).toContain('DELETE /v1/products/s-g1');
    expect(sent).toContain('DELETE /v1/products/s-g2');
    const s = base(shopA, ids.shrunk);
    const now = (await map.rowsOfProduct(subject.shop, subject.productId)).map(
      (r) => `${r.supplierSku} ${r.kind} ${r.variantGroup ?? '-'} ${r.state} ${r.parentSupplierSku ?? '-'}`,
    );
    expect(now).toEqual([
      `${s} parent - live -`,
      `${s}:v0 variant - tombstoned ${s}`,
      `${s}:v1 variant - live ${s}`,
      `${s}:v2 variant - live ${s}`,
    ]);
  });
});
