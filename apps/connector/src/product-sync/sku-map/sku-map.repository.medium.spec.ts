import type { DataSource } from 'typeorm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '#lib/clock';
import { uniqueId } from '#lib/testing';
import { mediumDatabase } from '../../../test/support/medium-database.js';
import type { AppliedRecord } from './sku-map.repository.js';
import { SkuMapConflict, SkuMapRepository } from './sku-map.repository.js';
import { SkuMapRow } from './sku-map-row.entity.js';

// Real PostgreSQL, the connector's own migrations, in a schema of this file's own.
const database = mediumDatabase('skumap', [SkuMapRow]);
const { schema } = database;
const clock = new ManualClock(Date.UTC(2026, 10, 23, 10));
let dataSource: DataSource;
let map: SkuMapRepository;

beforeAll(async () => {
  dataSource = await database.open();
  map = new SkuMapRepository(dataSource.getRepository(SkuMapRow), clock);
});

afterAll(() => database.close());

/** The row of `supplierSku` as stored (the writes return nothing: one round trip each). */
const rowOf = (shop: string, supplierSku: string) =>
  dataSource.getRepository(SkuMapRow).findOneByOrFail({ shop, supplierSku });

/** Each test its own shop: nothing shared between tests. */
const newShop = () => `${uniqueId('shop')}.myshopify.com`;
/** Beyond 2^53: must keep every digit. */
const PRODUCT = '9007199254740993123';
const VARIANT = '9007199254740995777';

const applied = (snapshot: Record<string, string | string[]>, hash = 'h1'): AppliedRecord => ({
  kind: 'parent',
  parentSupplierSku: null,
  snapshot,
  shopifyUpdatedAt: '2026-11-23T10:00:00-05:00',
  configuration: { dependencies: ['["entries","product"]'], hash },
  gaps: [],
});

describe('SkuMapRepository against PostgreSQL', () => {
  it('records intent before a create, resolves it by supplierSku, and marks it live', async () => {
    const shop = newShop();
    await map.recordIntent({
      shop,
      productId: PRODUCT,
      kind: 'parent',
      shopifyVariantId: null,
      supplierSku: 'p-1',
      parentSupplierSku: null,
    });
    expect(await rowOf(shop, 'p-1')).toMatchObject({
      state: 'pending-create',
      skuId: null,
      shopifyProductId: PRODUCT,
      snapshot: {},
    });

    // What the planner sees: a record without a skuId, created again with a look-up first.
    expect((await map.storedRecords(shop, PRODUCT)).map((r) => [r.supplierSku, r.skuId])).toEqual([
      ['p-1', null],
    ]);

    await map.markLive(shop, 'p-1', 'sku-100', applied({ name: 'Shirt', brand: 'Acme' }));
    const live = await rowOf(shop, 'p-1');
    expect(live).toMatchObject({ state: 'live', skuId: 'sku-100', configurationHash: 'h1' });
    expect(live.snapshot).toEqual({ name: 'Shirt', brand: 'Acme' });
    expect(live.shopifyUpdatedAt?.toISOString()).toBe('2026-11-23T15:00:00.000Z');
    expect((await map.storedRecords(shop, PRODUCT)).map((r) => [r.supplierSku, r.skuId])).toEqual([
      ['p-1', 'sku-100'],
    ]);
    // A retry that found the same record again is harmless; another skuId is refused.
    await map.markLive(shop, 'p-1', 'sku-100');
    expect((await rowOf(shop, 'p-1')).skuId).toBe('sku-100');
    await expect(map.markLive(shop, 'p-1', 'sku-200')).rejects.toBeInstanceOf(SkuMapConflict);
  });

  it('gives the planner the full snapshot of every row not tombstoned, ids intact', async () => {
    const shop = newShop();
    await map.recordIntent({
      shop,
      productId: PRODUCT,
      kind: 'parent',
      shopifyVariantId: null,
      supplierSku: 'p',
      parentSupplierSku: null,
    });
    await map.recordIntent({
      shop,
      productId: PRODUCT,
      kind: 'variant',
      shopifyVariantId: VARIANT,
      supplierSku: 'v1',
      parentSupplierSku: 'p',
    });
    await map.recordIntent({
      shop,
      productId: PRODUCT,
      kind: 'variant',
      shopifyVariantId: '42',
      supplierSku: 'v2',
      parentSupplierSku: 'p',
    });
    const full = { name: 'Shirt', brand: 'Acme', tags: ['a', 'b'], description: '<p>x</p>' };
    await map.markLive(shop, 'p', 'sku-p', applied(full));
    await map.markLive(shop, 'v1', 'sku-v1', {
      ...applied({ size: 'M', price: '10.00' }),
      kind: 'variant',
      parentSupplierSku: 'p',
    });
    expect(await map.tombstone(shop, ['v2'])).toBe(1);

    expect(await map.storedRecords(shop, PRODUCT)).toEqual([
      {
        kind: 'parent',
        shopifyVariantId: null,
        supplierSku: 'p',
        skuId: 'sku-p',
        snapshot: full,
        parentSupplierSku: null,
        variantGroup: null,
      },
      {
        kind: 'variant',
        shopifyVariantId: VARIANT,
        supplierSku: 'v1',
        skuId: 'sku-v1',
        snapshot: { size: 'M', price: '10.00' },
        parentSupplierSku: 'p',
        variantGroup: null,
      },
    ]);
    const rows = await map.rowsOfProduct(shop, PRODUCT);
    expect(rows.map((r) => [r.supplierSku, r.state])).toEqual([
      ['p', 'live'],
      ['v1', 'live'],
      ['v2', 'tombstoned'],
    ]);
    expect(await map.takenSupplierSkus(shop, ['v2', 'v3', 'p'])).toEqual(new Set(['v2', 'p']));
    // Looked up as newSupplierSku chooses them: trimmed.
    expect(await map.takenSupplierSkus(shop, [' v2 ', 'p\t'])).toEqual(new Set(['v2', 'p']));
    expect(await map.storedRecords(newShop(), PRODUCT)).toEqual([]);
    // The write-back's re-walk: live skuIds by keyset, ascending (tombstoned ones left out).
    expect(await map.liveSkuIdsAfter(shop, null, 1)).toEqual(['sku-p']);
    expect(await map.liveSkuIdsAfter(shop, 'sku-p', 10)).toEqual(['sku-v1']);
    expect(await map.liveSkuIdsAfter(shop, 'sku-v1', 10)).toEqual([]);
  });

  it('saves a live record snapshot and configuration; refuses it on a pending one', async () => {
    const shop = newShop();
    await map.recordIntent({
      shop,
      productId: '1',
      kind: 'simple',
      shopifyVariantId: null,
      supplierSku: 's',
      parentSupplierSku: null,
    });
    await expect(map.saveSnapshot(shop, 's', applied({ name: 'x' }))).rejects.toBeInstanceOf(SkuMapConflict);
    await map.markLive(shop, 's', 'sku-s', { ...applied({ name: 'x' }), kind: 'simple' });
    await clock.advance(1_000);
    const gap = {
      record: { kind: 'parent' as const, shopifyVariantId: null, supplierSku: 's' },
      entry: 'product.productType',
      attribute: 'category',
      values: ['Hats'],
      reason: 'unknown-value' as const,
      message: 'no category for "Hats"',
    };
    await map.saveSnapshot(shop, 's', { ...applied({ name: 'y' }, 'h2'), gaps: [gap] });
    const saved = await rowOf(shop, 's');
    // A simple product that gained options becomes a parent: same row, same skuId.
    expect(saved).toMatchObject({
      kind: 'parent',
      skuId: 'sku-s',
      state: 'live',
      configurationHash: 'h2',
      gaps: [gap],
    });
    expect(saved.snapshot).toEqual({ name: 'y' });
    expect(saved.updatedAt.getTime()).toBeGreaterThan(saved.createdAt.getTime());
  });

  it('marks a record gone from the catalog, and records intent to recreate it under the same supplierSku', async () => {
    const shop = newShop();
    await map.recordIntent({
      shop,
      productId: '7',
      kind: 'simple',
      shopifyVariantId: null,
      supplierSku: 'g',
      parentSupplierSku: null,
    });
    await map.markLive(shop, 'g', 'sku-old', { ...applied({ name: 'n' }), kind: 'simple' });
    await map.markGone(shop, 'g');
    const gone = await rowOf(shop, 'g');
    expect(gone).toMatchObject({ state: 'gone-from-catalog', skuId: null });
    expect(gone.snapshot).toEqual({ name: 'n' });
    expect((await map.storedRecords(shop, '7'))[0]?.skuId).toBeNull();
    await map.recordIntent({
      shop,
      productId: '7',
      kind: 'simple',
      shopifyVariantId: null,
      supplierSku: 'g',
      parentSupplierSku: null,
    });
    expect(await rowOf(shop, 'g')).toMatchObject({ id: gone.id, state: 'pending-create' });
    await map.markLive(shop, 'g', 'sku-new');
    expect((await rowOf(shop, 'g')).skuId).toBe('sku-new');
  });

  it('never creates a live or tombstoned record again', async () => {
    const shop = newShop();
    const intent = {
      shop,
      productId: '8',
      kind: 'simple' as const,
      shopifyVariantId: null,
      supplierSku: 'l',
      parentSupplierSku: null,
    };
    await map.recordIntent(intent);
    // A retried intent for a still-pending create is the same row.
    await map.recordIntent(intent);
    expect((await rowOf(shop, 'l')).state).toBe('pending-create');
    await map.markLive(shop, 'l', 'sku-l');
    await expect(map.recordIntent(intent)).rejects.toThrow(/is live: it is never created again/);
    await map.tombstone(shop, ['l']);
    await expect(map.recordIntent(intent)).rejects.toThrow(/is tombstoned/);
    await expect(map.markLive(shop, 'l', 'sku-l')).rejects.toBeInstanceOf(SkuMapConflict);
  });

  it('is unique per shop on the Shopify record, the supplierSku and the skuId', async () => {
    const shop = newShop();
    const base = { shop, productId: '9', kind: 'variant' as const, parentSupplierSku: 'p9' };
    await map.recordIntent({ ...base, shopifyVariantId: '91', supplierSku: 'u1' });
    // Another variant cannot take a supplierSku in use.
    await expect(map.recordIntent({ ...base, shopifyVariantId: '92', supplierSku: 'u1' })).rejects.toThrow(
      /sku_map_shop_supplier_sku_unique/,
    );
    await map.recordIntent({ ...base, shopifyVariantId: '92', supplierSku: 'u2' });
    await map.markLive(shop, 'u1', 'sku-dup');
    // Two rows of one shop never share a skuId...
    await expect(map.markLive(shop, 'u2', 'sku-dup')).rejects.toThrow(/sku_map_shop_sku_id_idx/);
    // ...while another shop may use the same supplierSku and skuId.
    const other = newShop();
    await map.recordIntent({ ...base, shop: other, shopifyVariantId: '91', supplierSku: 'u1' });
    await map.markLive(other, 'u1', 'sku-dup');
    expect((await rowOf(other, 'u1')).state).toBe('live');
    // The database itself refuses a second own row for one product (not only the repository).
    await expect(
      dataSource.query(
        `INSERT INTO "${schema}".sku_map (shop, shopify_product_id, kind, supplier_sku, state, created_at, updated_at)
         VALUES ($1, 10, 'simple', 'a', 'pending-create', now(), now()), ($1, 10, 'simple', 'b', 'pending-create', now(), now())`,
        [shop],
      ),
    ).rejects.toThrow(/sku_map_shopify_record_idx/);
    await expect(
      dataSource.query(
        `INSERT INTO "${schema}".sku_map (shop, shopify_product_id, kind, supplier_sku, state, created_at, updated_at)
         VALUES ($1, 11, 'simple', 'c', 'live', now(), now())`,
        [shop],
      ),
    ).rejects.toThrow(/sku_map_live_has_sku_id_check/);
  });

  it('holds one parent per group of a split product, each group once; a moved variant is created again', async () => {
    const shop = newShop();
    const parent = {
      shop,
      productId: '12',
      kind: 'parent' as const,
      shopifyVariantId: null,
      parentSupplierSku: null,
    };
    await map.recordIntent({ ...parent, supplierSku: 'g:101', variantGroup: '101' });
    await map.recordIntent({ ...parent, supplierSku: 'g:102', variantGroup: '102' });
    await map.markLive(shop, 'g:101', 'sku-g1');
    await expect(map.recordIntent({ ...parent, supplierSku: 'g:101b', variantGroup: '101' })).rejects.toThrow(
      /is live/,
    );
    expect((await map.storedRecords(shop, '12')).map((r) => [r.supplierSku, r.variantGroup])).toEqual([
      ['g:101', '101'],
      ['g:102', '102'],
    ]);
    // A variant moving group: its row is marked gone once deleted, then created under the new parent.
    const variant = {
      shop,
      productId: '12',
      kind: 'variant' as const,
      shopifyVariantId: '121',
      supplierSku: 'v121',
    };
    await map.recordIntent({ ...variant, parentSupplierSku: 'g:101' });
    await map.markLive(shop, 'v121', 'sku-v121');
    await map.markGone(shop, 'v121');
    await map.recordIntent({ ...variant, parentSupplierSku: 'g:102' });
    const again = await rowOf(shop, 'v121');
    expect([again.state, again.parentSupplierSku, again.skuId]).toEqual(['pending-create', 'g:102', null]);
  });
});

describe('SkuMapRepository.appliedSince', () => {
  it('names, in one question, the shops a sync applied a live record of after a time', async () => {
    const [a, b, quiet] = [newShop(), newShop(), newShop()];
    const intent = {
      productId: PRODUCT,
      kind: 'parent' as const,
      shopifyVariantId: null,
      parentSupplierSku: null,
    };
    for (const shop of [a, b, quiet]) await map.recordIntent({ ...intent, shop, supplierSku: 'w-1' });
    const before = new Date(clock.now() - 1);
    await map.markLive(a, 'w-1', 'sku-a', applied({ name: 'A' }));
    await map.markLive(b, 'w-1', 'sku-b', applied({ name: 'B' }));
    // `quiet` has only a pending record: nothing applied, nothing waits for its enrichment.
    expect(await map.appliedSince([a, b, quiet], before)).toEqual(new Set([a, b]));
    await clock.advance(60_000);
    expect(await map.appliedSince([a, b, quiet], new Date(clock.now() - 30_000))).toEqual(new Set());
    expect(await map.appliedSince([], before)).toEqual(new Set());
  });
});
