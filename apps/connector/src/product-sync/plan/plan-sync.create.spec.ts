import { describe, expect, it } from 'vitest';
import { applyPlan, demoMapping, product, SHOP, variant } from '../../../test/support/sync-plan-inputs.js';
import { planSync } from './plan-sync.js';

const mapping = demoMapping();

describe('planSync: a product never synced', () => {
  it('creates a product with only its default variant as one simple product, values as strings', () => {
    const p = product({
      variants: [variant({ barcode: '4006381333931', price: '19.90', compareAtPrice: '24.90' })],
    });
    const plan = planSync({ shop: SHOP, product: p, mapping, stored: [] });
    expect(plan.status).toBe('planned');
    expect(plan.calls).toEqual([
      {
        kind: 'createProduct',
        record: { kind: 'simple', shopifyVariantId: null, supplierSku: `demo:product:${p.legacyResourceId}` },
        lookupFirst: false,
        body: {
          product: {
            supplierSku: `demo:product:${p.legacyResourceId}`,
            attributes: [
              { key: 'name', value: 'Basic tee' },
              { key: 'brand', value: 'Acme' },
              { key: 'description', value: '<p>Soft cotton.</p>' },
              { key: 'productCategory', value: 'apparel-tops-tshirts' },
              { key: 'price', value: '19.90' },
              { key: 'compareAtPrice', value: '24.90' },
              { key: 'gtin', value: '4006381333931' },
              { key: 'productModel', value: '4006381333931' },
            ],
          },
        },
      },
    ]);
    expect(plan.records).toHaveLength(1);
    expect(plan.records[0]).toMatchObject({
      kind: 'simple',
      action: 'create',
      skuId: null,
      parentSupplierSku: null,
    });
    expect(plan.records[0]?.snapshot).toEqual({
      name: 'Basic tee',
      brand: 'Acme',
      description: '<p>Soft cotton.</p>',
      productCategory: 'apparel-tops-tshirts',
      price: '19.90',
      compareAtPrice: '24.90',
      gtin: '4006381333931',
      productModel: '4006381333931',
    });
    expect(plan.gaps).toEqual([]);
    expect(plan.notes).toEqual([]);
  });

  it('creates a product with options as a parent, then one variant per Shopify variant', () => {
    const small = variant({ options: { Size: 'Small', Colour: 'Black' }, barcode: '111', price: '20.00' });
    const medium = variant({ options: { Size: 'M', Colour: 'black' }, barcode: '222', price: '22.00' });
    const p = product({ variants: [small, medium] });
    const plan = planSync({ shop: SHOP, product: p, mapping, stored: [] });
    const parentSku = `demo:product:${p.legacyResourceId}`;
    expect(plan.calls.map((c) => c.kind)).toEqual(['createProduct', 'createVariant', 'createVariant']);
    expect(plan.calls[0]).toMatchObject({
      record: { kind: 'parent' },
      body: {
        product: {
          supplierSku: parentSku,
          attributes: [
            { key: 'name', value: 'Basic tee' },
            { key: 'brand', value: 'Acme' },
            { key: 'description', value: '<p>Soft cotton.</p>' },
            { key: 'productCategory', value: 'apparel-tops-tshirts' },
            { key: 'productModel', value: '111' },
          ],
        },
      },
    });
    expect(plan.calls[1]).toEqual({
      kind: 'createVariant',
      record: {
        kind: 'variant',
        shopifyVariantId: small.legacyResourceId,
        supplierSku: `demo:variant:${small.legacyResourceId}`,
      },
      lookupFirst: false,
      body: {
        parentSupplierSku: parentSku,
        supplierSku: `demo:variant:${small.legacyResourceId}`,
        attributes: [
          { key: 'price', value: '20.00' },
          { key: 'gtin', value: '111' },
          { key: 'productModel', value: '111' },
          { key: 'size', value: 'S' },
          { key: 'color', value: 'Black' },
        ],
      },
    });
    expect(plan.calls[2]).toMatchObject({
      body: {
        attributes: expect.arrayContaining([
          { key: 'size', value: 'M' },
          { key: 'productModel', value: '222' },
        ]),
      },
    });
    expect(plan.records.map((r) => [r.kind, r.action, r.parentSupplierSku])).toEqual([
      ['parent', 'create', null],
      ['variant', 'create', parentSku],
      ['variant', 'create', parentSku],
    ]);
  });

  it('never sends inherited attributes on variants', () => {
    const p = product({
      variants: [variant({ options: { Size: 'S' } }), variant({ options: { Size: 'M' } })],
    });
    const plan = planSync({ shop: SHOP, product: p, mapping, stored: [] });
    const variantKeys = plan.calls
      .filter((c) => c.kind === 'createVariant')
      .flatMap((c) => c.body.attributes.map((a) => a.key));
    const inherited = [...mapping.definitions.values()]
      .filter((d) => d.option.variantable !== true)
      .map((d) => d.key);
    expect(variantKeys.length).toBeGreaterThan(0);
    expect(variantKeys.filter((k) => inherited.includes(k))).toEqual([]);
  });

  it('keeps ids beyond 2^53 exact in supplierSkus and records', () => {
    const v = variant({ legacyResourceId: '9007199254740993123', options: { Size: 'S' } });
    const p = product({ legacyResourceId: '9007199254740993777', variants: [v] });
    const plan = planSync({ shop: SHOP, product: p, mapping, stored: [] });
    expect(plan.records.map((r) => r.supplierSku)).toEqual([
      'demo:product:9007199254740993777',
      'demo:variant:9007199254740993123',
    ]);
    expect(plan.records[1]?.shopifyVariantId).toBe('9007199254740993123');
  });

  it('refuses a parent over 200 variants as a reported failure, with no call at all', () => {
    const variants = Array.from({ length: 201 }, (_, i) => variant({ options: { Size: String(i) } }));
    const plan = planSync({ shop: SHOP, product: product({ variants }), mapping, stored: [] });
    expect(plan).toEqual({
      status: 'failed',
      failure: {
        code: 'variant-limit-exceeded',
        message: 'the product has 201 variants; a catalog parent takes at most 200: nothing was synced',
        variantCount: 201,
        limit: 200,
      },
      records: [],
      calls: [],
      gaps: [],
      notes: [],
    });
  });

  it('counts variants beyond the read page (variantsCount) against the limit', () => {
    const p = product({ variants: [variant({ options: { Size: 'S' } })] });
    const plan = planSync({ shop: SHOP, product: { ...p, variantsCount: 2048 }, mapping, stored: [] });
    expect(plan.failure?.code).toBe('variant-limit-exceeded');
  });

  it('takes exactly 200 variants', () => {
    const variants = Array.from({ length: 200 }, (_, i) => variant({ options: { Size: String(i) } }));
    const plan = planSync({ shop: SHOP, product: product({ variants }), mapping, stored: [] });
    expect(plan.calls).toHaveLength(201);
  });

  it('resumes a pending create with a look-up first, and never creates a second supplierSku', () => {
    const p = product();
    const first = planSync({ shop: SHOP, product: p, mapping, stored: [] });
    const pending = first.records.map((r) => ({
      kind: r.kind,
      shopifyVariantId: r.shopifyVariantId,
      supplierSku: r.supplierSku,
      skuId: null,
      snapshot: {},
    }));
    const again = planSync({ shop: SHOP, product: p, mapping, stored: pending });
    expect(again.calls).toEqual([{ ...first.calls[0], lookupFirst: true }]);
    expect(applyPlan(again)).toHaveLength(1);
  });
});
