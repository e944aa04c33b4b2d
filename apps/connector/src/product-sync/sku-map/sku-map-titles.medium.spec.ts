import type { DataSource } from 'typeorm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '#lib/clock';
import { uniqueId } from '#lib/testing';
import { mediumDatabase } from '../../../test/support/medium-database.js';
import { SkuMapLinks } from './sku-map-links.repository.js';
import { SkuMapRow } from './sku-map-row.entity.js';
import { SkuMapTitles } from './sku-map-titles.repository.js';

// The web view's titles, read from the real sku map table: the product's own record's snapshot,
// a whole page in one statement, and the title search (ignoring case, `%` and `_` as text).
const database = mediumDatabase('titles', [SkuMapRow]);
const clock = new ManualClock(Date.UTC(2026, 10, 23, 12));
let dataSource: DataSource;
let links: SkuMapLinks;
let titles: SkuMapTitles;
const newShop = () => `${uniqueId('shop')}.myshopify.com`;

beforeAll(async () => {
  dataSource = await database.open();
  links = new SkuMapLinks(dataSource.getRepository(SkuMapRow), clock);
  titles = new SkuMapTitles(dataSource.getRepository(SkuMapRow));
});

afterAll(() => database.close());

/** A product with its own record (`name` in its snapshot) and one variant record. */
async function product(shop: string, productId: string, name: string): Promise<void> {
  const linked = await links.link(shop, productId, [
    {
      kind: 'parent',
      shopifyVariantId: null,
      supplierSku: `${shop}-${productId}`,
      parentSupplierSku: null,
      skuId: `SK-${shop}-${productId}`,
      snapshot: { name, brand: 'Acme' },
    },
    {
      kind: 'variant',
      shopifyVariantId: `88${productId.slice(-4)}`,
      supplierSku: `${shop}-${productId}-v`,
      parentSupplierSku: `${shop}-${productId}`,
      skuId: `SK-${shop}-${productId}-v`,
      snapshot: { name: 'Variant name', size: 'S' },
    },
  ]);
  expect(linked).toBe(true);
}

describe('SkuMapTitles against PostgreSQL', () => {
  it("reads each product's title from its own record, for several shops in one statement", async () => {
    const [a, b] = [newShop(), newShop()];
    await product(a, '101', 'Linen shirt');
    await product(b, '9007199254740993123', 'Oak board');
    const found = await titles.titles([
      { shop: a, productId: '101', attribute: 'name' },
      { shop: b, productId: '9007199254740993123', attribute: 'name' },
      { shop: a, productId: '102', attribute: 'name' },
    ]);
    expect(found).toEqual(
      expect.arrayContaining([
        { shop: a, productId: '101', title: 'Linen shirt' },
        { shop: b, productId: '9007199254740993123', title: 'Oak board' },
      ]),
    );
    // Product 102 has no record: no title; each product's own record, not its variant's.
    expect(found).toHaveLength(2);
    expect(await titles.titles([])).toEqual([]);
  });

  it('finds products by part of their title, ignoring case, taking % and _ as text', async () => {
    const shop = newShop();
    await product(shop, '201', 'Linen SHIRT');
    await product(shop, '202', 'Wool shirt');
    await product(shop, '203', '100% cotton_tee');
    const search = (text: string) => titles.titled([{ shop, attribute: 'name' }], text, 10);
    expect((await search('shirt')).map((t) => t.title)).toEqual(['Linen SHIRT', 'Wool shirt']);
    expect((await search('0% c')).map((t) => t.productId)).toEqual(['203']);
    // `_` is no wildcard: "l_n" does not find "Linen".
    expect(await search('l_n')).toEqual([]);
    expect(await search('variant')).toEqual([]);
    expect(await titles.titled([{ shop, attribute: 'name' }], 'shirt', 1)).toHaveLength(1);
  });
});
