import type { DataSource } from 'typeorm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { uniqueId } from '#lib/testing';
import { mediumDatabase } from '../../../test/support/medium-database.js';
import type { GapReason } from './gap-reasons.js';
import { MappingGapRow } from './mapping-gap.entity.js';
import { MappingGapsRepository } from './mapping-gaps.repository.js';

// The products' mapping gaps grouped by reason, per shop, in SQL (the overview's figure and the
// list's filter), against real PostgreSQL (the connector's migrations, a schema of this file's own).
const database = mediumDatabase('gaps', [MappingGapRow]);
let dataSource: DataSource;
let gaps: MappingGapsRepository;

beforeAll(async () => {
  dataSource = await database.open();
  gaps = new MappingGapsRepository(dataSource.getRepository(MappingGapRow));
});

afterAll(() => database.close());

const reason = (words: string, code: GapReason['code'] = 'unknown-value'): GapReason => ({
  reason: words,
  code,
  attribute: 'productCategory',
  records: code === 'missing-required-attribute' ? 0 : 1,
});
const at = (minute: number) => new Date(Date.UTC(2026, 10, 27, 0, minute));
const shopName = () => `${uniqueId('shop')}.myshopify.com`;

describe('mapping gaps', () => {
  it('groups a shop’s products by reason, most products first (then by the words), and counts the blocked ones', async () => {
    const shop = shopName();
    const other = shopName();
    const accessories = reason('category "Accessories" is not a category of the account');
    const model = reason('productModel is not set', 'enrichment-will-fail');
    const brand = reason('the catalog needs "brand" to create a product', 'missing-required-attribute');
    await gaps.record(shop, '1', 'Belt', [accessories, model], at(1));
    await gaps.record(shop, '2', 'Scarf', [accessories], at(2));
    await gaps.record(shop, '3', 'Cap', [brand], at(3));
    await gaps.record(other, '1', 'Other belt', [model], at(1));
    const [summary] = await gaps.summaries(2, shop);
    expect(summary).toEqual({
      shop,
      products: 3,
      blocked: 1,
      reasons: [
        { reason: accessories.reason, products: 2 },
        { reason: model.reason, products: 1 },
      ],
      reasonCount: 3,
    });
    const all = await gaps.summaries(10);
    expect(all.find((s) => s.shop === other)).toMatchObject({
      products: 1,
      reasons: [{ reason: model.reason }],
    });
  });

  it('pages a shop’s products, latest first, filtered by one reason', async () => {
    const shop = shopName();
    const accessories = reason('category "Accessories" is not a category of the account');
    for (let i = 1; i <= 5; i += 1) await gaps.record(shop, String(i), `Product ${i}`, [accessories], at(i));
    await gaps.record(shop, '6', 'Teal shirt', [reason('"Teal" is not an allowed value of color')], at(6));
    const first = await gaps.page(shop, { reason: accessories.reason, limit: 2, offset: 0 });
    expect(first.total).toBe(5);
    expect(first.items.map((row) => [row.productId, row.title])).toEqual([
      ['5', 'Product 5'],
      ['4', 'Product 4'],
    ]);
    expect(first.items[0]?.reasons).toEqual([accessories]);
    const rest = await gaps.page(shop, { reason: accessories.reason, limit: 10, offset: 4 });
    expect(rest.items.map((row) => row.productId)).toEqual(['1']);
    expect((await gaps.page(shop, { reason: null, limit: 10, offset: 0 })).total).toBe(6);
  });

  it('clears a product whose plan has no gap any more, and purges a shop', async () => {
    const shop = shopName();
    await gaps.record(shop, '1', 'Belt', [reason('a')], at(1));
    await gaps.record(shop, '2', 'Cap', [reason('b')], at(1));
    await gaps.record(shop, '1', 'Belt', [], at(2));
    expect(await gaps.ofProduct(shop, '1')).toBeNull();
    expect(await gaps.ofProduct(shop, '2')).toMatchObject({ title: 'Cap', blocked: false });
    expect(await gaps.purgeShop(shop)).toBe(1);
    expect(await gaps.summaries(5, shop)).toEqual([]);
  });
});
