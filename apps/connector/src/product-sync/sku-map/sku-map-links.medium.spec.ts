import type { DataSource } from 'typeorm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '#lib/clock';
import { uniqueId } from '#lib/testing';
import { mediumDatabase } from '../../../test/support/medium-database.js';
import { SkuMapRepository } from './sku-map.repository.js';
import { SkuMapLinks } from './sku-map-links.repository.js';
import { SkuMapRow } from './sku-map-row.entity.js';

// Linking writes into the real sku map table (its constraints), next to the sync's own writes.
const database = mediumDatabase('links', [SkuMapRow]);
const clock = new ManualClock(Date.UTC(2026, 10, 23, 12));
let dataSource: DataSource;
let links: SkuMapLinks;
let map: SkuMapRepository;
const newShop = () => `${uniqueId('shop')}.myshopify.com`;

beforeAll(async () => {
  dataSource = await database.open();
  links = new SkuMapLinks(dataSource.getRepository(SkuMapRow), clock);
  map = new SkuMapRepository(dataSource.getRepository(SkuMapRow), clock);
});

afterAll(() => database.close());

describe('SkuMapLinks against PostgreSQL', () => {
  it("enters a product's records as live with their own supplierSku, all or none", async () => {
    const shop = newShop();
    const linked = await links.link(shop, '9007199254740993123', [
      {
        kind: 'parent',
        shopifyVariantId: null,
        supplierSku: 'ERP-1',
        parentSupplierSku: null,
        skuId: 'SK1',
        snapshot: { name: 'Shirt' },
      },
      {
        kind: 'variant',
        shopifyVariantId: '77',
        supplierSku: 'ERP-1-S',
        parentSupplierSku: 'ERP-1',
        skuId: 'SK2',
        snapshot: { size: 'S' },
      },
    ]);
    expect(linked).toBe(true);
    expect(await map.storedRecords(shop, '9007199254740993123')).toEqual([
      {
        kind: 'parent',
        shopifyVariantId: null,
        supplierSku: 'ERP-1',
        skuId: 'SK1',
        snapshot: { name: 'Shirt' },
        parentSupplierSku: null,
        variantGroup: null,
      },
      {
        kind: 'variant',
        shopifyVariantId: '77',
        supplierSku: 'ERP-1-S',
        skuId: 'SK2',
        snapshot: { size: 'S' },
        parentSupplierSku: 'ERP-1',
        variantGroup: null,
      },
    ]);
    // Another product whose second record is taken: nothing of it is written.
    expect(
      await links.link(shop, '2', [
        {
          kind: 'parent',
          shopifyVariantId: null,
          supplierSku: 'ERP-2',
          parentSupplierSku: null,
          skuId: 'SK3',
          snapshot: {},
        },
        {
          kind: 'variant',
          shopifyVariantId: '78',
          supplierSku: 'ERP-9',
          parentSupplierSku: 'ERP-2',
          skuId: 'SK2',
          snapshot: {},
        },
      ]),
    ).toBe(false);
    expect(await map.rowsOfProduct(shop, '2')).toEqual([]);
    expect(await links.mappedProducts(shop)).toEqual(new Set(['9007199254740993123']));
    expect(await links.mappedSkuIds([shop, newShop()])).toEqual(new Set(['SK1', 'SK2']));
    expect(await links.usedSupplierSkus(shop)).toEqual(new Set(['ERP-1', 'ERP-1-S']));
  });

  it('claims, for a drift report, the records of every shop in the map (not only the ones a replica knows), and tells a shared prefix', async () => {
    const [a, b] = [newShop(), newShop()];
    const link = (shop: string, productId: string, supplierSku: string, skuId: string) =>
      links.link(shop, productId, [
        { kind: 'simple', shopifyVariantId: null, supplierSku, parentSupplierSku: null, skuId, snapshot: {} },
      ]);
    expect(await link(a, '1', 'pa:product:1', 'SKA')).toBe(true);
    expect(await link(b, '2', 'pb:product:2', 'SKB')).toBe(true);
    const all = await links.claimedRecords();
    expect([all.skuIds.has('SKA'), all.skuIds.has('SKB'), all.supplierSkus.has('pb:product:2')]).toEqual([
      true,
      true,
      true,
    ]);
    // One finding re-checked: only what it names.
    expect(await links.claimedRecords({ skuIds: ['SKB', 'nope'], supplierSkus: ['x'] })).toEqual({
      skuIds: new Set(['SKB']),
      supplierSkus: new Set(['pb:product:2']),
    });
    expect(await links.prefixUsedByOthers(a, 'pb')).toBe(true);
    expect(await links.prefixUsedByOthers(b, 'pb')).toBe(false);
    expect(await links.prefixUsedByOthers(a, 'p')).toBe(false);
  });
});
