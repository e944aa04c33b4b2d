import { describe, expect, it } from 'vitest';
import type { ProductRecord } from '#lib/catalog-contract';
import type { KeyedProduct } from '../clients/shopify/shopify-product-pages.js';
import { CatalogIndex } from './catalog-index.js';
import { type LinkMatch, LinkMatcher } from './link-matcher.js';

let next = 0;
function record(
  supplierSku: string,
  options: { parent?: string; gtin?: string; values?: Record<string, string> } = {},
): ProductRecord {
  next += 1;
  return {
    id: `id${next}`,
    skuId: `SK${String(next).padStart(8, '0')}`,
    supplierSku,
    parentSkuId: options.parent ?? null,
    createdAt: next,
    updatedAt: next,
    attributeSummary: { enrichableTotal: 0, enrichableCompleted: 0, enrichableCompletionRate: 0 },
    attributes: [
      ...Object.entries(options.values ?? {}).map(([key, value]) => ({ key, value })),
      ...(options.gtin ? [{ key: 'gtin', value: options.gtin }] : []),
      { key: 'brand', value: 'Parent brand', inherited: true },
      { key: 'description', value: null },
    ],
  };
}

const simple = (productId: string, sku: string | null, barcode: string | null = null): KeyedProduct => ({
  productId,
  updatedAt: '2026-11-23T12:00:00Z',
  simple: true,
  variants: [{ variantId: `${productId}1`, sku, barcode }],
});
const withOptions = (productId: string, variants: Array<[string | null, string | null]>): KeyedProduct => ({
  productId,
  updatedAt: '2026-11-23T12:00:00Z',
  simple: false,
  variants: variants.map(([sku, barcode], i) => ({ variantId: `${productId}${i}`, sku, barcode })),
});

function matcher(
  records: ProductRecord[],
  match: LinkMatch,
  options: { mapped?: string[]; skuIds?: string[] } = {},
) {
  const index = new CatalogIndex(match.catalog, new Set(options.skuIds ?? []));
  index.add(records);
  return new LinkMatcher(index, match, new Set(options.mapped ?? []), new Set());
}

describe('LinkMatcher', () => {
  it("links a simple product by its variant's SKU to the parentless record with that supplierSku, keeping the record's own values", () => {
    const tee = record('TEE-1', { values: { name: 'Tee' } });
    const m = matcher([tee, record('OTHER')], { shopify: 'sku', catalog: 'supplierSku' });
    expect(m.decide(simple('1', ' TEE-1 '))).toEqual({
      action: 'link',
      productId: '1',
      records: [
        {
          kind: 'simple',
          shopifyVariantId: null,
          skuId: tee.skuId,
          supplierSku: 'TEE-1',
          parentSupplierSku: null,
          snapshot: { name: 'Tee' },
        },
      ],
    });
    expect(m.decide(simple('2', 'NOPE'))).toEqual({ action: 'create', productId: '2' });
    expect(m.decide(simple('3', null))).toEqual({ action: 'create', productId: '3' });
    expect(m.decide(simple('4', '   '))).toEqual({ action: 'create', productId: '4' });
  });

  it('links a product with options by barcode against gtin: each variant, and their common parent', () => {
    const parent = record('MADE-BY-ERP-7', { values: { name: 'Shirt' } });
    const s = record('ERP-7-S', { parent: parent.skuId, gtin: '4006381333931' });
    const m2 = record('ERP-7-M', { parent: parent.skuId, gtin: '4006381333948' });
    const m = matcher([parent, s, m2], { shopify: 'barcode', catalog: 'gtin' });
    const decision = m.decide(
      withOptions('10', [
        ['x', '4006381333931'],
        ['y', '4006381333948'],
        ['z', '999'],
      ]),
    );
    expect(decision.action).toBe('link');
    if (decision.action !== 'link') return;
    expect(
      decision.records.map((r) => [r.kind, r.shopifyVariantId, r.supplierSku, r.parentSupplierSku]),
    ).toEqual([
      ['parent', null, 'MADE-BY-ERP-7', null],
      ['variant', '100', 'ERP-7-S', 'MADE-BY-ERP-7'],
      ['variant', '101', 'ERP-7-M', 'MADE-BY-ERP-7'],
    ]);
    // Inherited values are the parent's, not the variant's own.
    expect(decision.records[1]?.snapshot).toEqual({ gtin: '4006381333931' });
  });

  it('never guesses: two candidates, two parents, or a record claimed by another product are conflicts', () => {
    const a = record('DUP');
    const b = record('DUP');
    const p1 = record('P1');
    const p2 = record('P2');
    const v1 = record('V1', { parent: p1.skuId });
    const v2 = record('V2', { parent: p2.skuId });
    const once = record('ONCE');
    const m = matcher([a, b, p1, p2, v1, v2, once], { shopify: 'sku', catalog: 'supplierSku' });
    expect(m.decide(simple('1', 'DUP'))).toMatchObject({
      action: 'conflict',
      reason: expect.stringMatching(/matches 2 records/),
    });
    expect(
      m.decide(
        withOptions('2', [
          ['V1', null],
          ['V2', null],
        ]),
      ),
    ).toMatchObject({
      action: 'conflict',
      reason: 'its variants match records of 2 parents',
    });
    expect(m.decide(simple('3', 'ONCE')).action).toBe('link');
    expect(m.decide(simple('4', 'ONCE'))).toMatchObject({
      action: 'conflict',
      reason: expect.stringMatching(/another product/),
    });
    // A variant key never matches a parentless record, nor a product key a variant.
    expect(m.decide(simple('5', 'V1')).action).toBe('create');
    expect(m.decide(withOptions('6', [['ONCE', null]])).action).toBe('create');
  });

  it('leaves products and records the map already holds alone', () => {
    const held = record('HELD');
    const m = matcher(
      [held, record('FREE')],
      { shopify: 'sku', catalog: 'supplierSku' },
      {
        mapped: ['7'],
        skuIds: [held.skuId],
      },
    );
    expect(m.decide(simple('7', 'FREE'))).toEqual({ action: 'update', productId: '7' });
    expect(m.decide(simple('8', 'HELD'))).toEqual({ action: 'create', productId: '8' });
    expect(m.decide(simple('9', 'FREE')).action).toBe('link');
  });
});
