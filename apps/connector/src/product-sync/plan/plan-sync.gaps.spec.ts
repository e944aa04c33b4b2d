import { describe, expect, it } from 'vitest';
import {
  applyPlan,
  DEMO_MAPPING_TEXT,
  demoMapping,
  product,
  SHOP,
  variant,
} from '../../../test/support/sync-plan-inputs.js';
import { planSync } from './plan-sync.js';

const mapping = demoMapping();

describe('planSync: gaps and notes', () => {
  it('leaves an unknown option value out and records a gap, instead of a call the catalog refuses', () => {
    const teal = variant({ options: { Size: 'S', Color: 'Teal' } });
    const p = product({ variants: [teal, variant({ options: { Size: 'M', Color: 'Black' } })] });
    const plan = planSync({ shop: SHOP, product: p, mapping, stored: [] });
    expect(plan.calls[1]).toMatchObject({ record: { shopifyVariantId: teal.legacyResourceId } });
    const sent =
      plan.calls[1]?.kind === 'createVariant' ? plan.calls[1].body.attributes.map((a) => a.key) : [];
    expect(sent).toEqual(['price', 'size']);
    expect(plan.gaps).toEqual([
      {
        record: {
          kind: 'variant',
          shopifyVariantId: teal.legacyResourceId,
          supplierSku: `demo:variant:${teal.legacyResourceId}`,
        },
        entry: 'variant.options.Color',
        attribute: 'color',
        values: ['Teal'],
        reason: 'unknown-value',
        message:
          '"Teal" is not an allowed value of color: add it to variant.options.Color.values, or to the attribute in the catalog',
      },
    ]);
    expect(plan.records[1]?.gaps).toHaveLength(1);
  });

  it('keeps the last applied value of an attribute that becomes a gap (no clear, no retry loop)', () => {
    const p = product({
      variants: [
        variant({ options: { Size: 'S', Color: 'Black' } }),
        variant({ options: { Size: 'M', Color: 'Black' } }),
      ],
    });
    const stored = applyPlan(planSync({ shop: SHOP, product: p, mapping, stored: [] }));
    const teal = {
      ...p,
      variants: p.variants.map((v, i) =>
        i === 0
          ? {
              ...v,
              selectedOptions: [
                { name: 'Size', value: 'S' },
                { name: 'Color', value: 'Teal' },
              ],
            }
          : v,
      ),
    };
    const plan = planSync({ shop: SHOP, product: teal, mapping, stored });
    expect(plan.calls).toEqual([]);
    expect(plan.gaps).toHaveLength(1);
    expect(plan.records[1]?.snapshot.color).toBe('Black');
    const again = planSync({ shop: SHOP, product: teal, mapping, stored: applyPlan(plan) });
    expect(again.calls).toEqual([]);
  });

  it('leaves a product type without a category out of the product, as a gap', () => {
    const plan = planSync({ shop: SHOP, product: product({ productType: 'Hats' }), mapping, stored: [] });
    expect(plan.gaps.map((g) => [g.entry, g.values])).toEqual([['product.productType', ['Hats']]]);
    expect(plan.records[0]?.snapshot).not.toHaveProperty('productCategory');
  });

  it('names the catalog rule a required value breaks, not "gives none"', () => {
    const lineBreak = planSync({
      shop: SHOP,
      product: product({ title: 'Basic\ntee' }),
      mapping,
      stored: [],
    });
    expect(lineBreak.status).toBe('failed');
    expect(lineBreak.failure?.message).toContain('product.title');
    expect(lineBreak.failure?.message).toContain('short text has no line breaks');
    expect(lineBreak.failure?.message).not.toContain('gives none');
    const long = planSync({ shop: SHOP, product: product({ vendor: 'v'.repeat(300) }), mapping, stored: [] });
    expect(long.status).toBe('failed');
    expect(long.failure?.message).toContain('product.vendor');
    expect(long.failure?.message).toContain('longer than 255 characters (300)');
    expect(long.failure?.message).not.toContain('gives none');
  });

  it('notes an option the mapping does not map', () => {
    const p = product({ variants: [variant({ barcode: '111', options: { Size: 'S', Material: 'Wool' } })] });
    const plan = planSync({ shop: SHOP, product: p, mapping, stored: [] });
    expect(plan.notes).toEqual([
      {
        code: 'unmapped-option',
        option: 'Material',
        message: 'option "Material" is not mapped (variant.options): its values are not sent to the catalog',
      },
    ]);
  });

  it('still syncs a product without brand or productModel, and says why enrichment will fail', () => {
    const p = product({ vendor: '', variants: [variant({ barcode: null })] });
    const plan = planSync({ shop: SHOP, product: p, mapping, stored: [] });
    expect(plan.status).toBe('planned');
    expect(plan.calls[0]).toMatchObject({
      body: { product: { attributes: expect.arrayContaining([{ key: 'brand', value: 'Unbranded' }]) } },
    });
    expect(plan.notes).toEqual([
      {
        code: 'enrichment-will-fail',
        attribute: 'brand',
        message:
          'product.vendor is empty in Shopify, so brand holds the mapping\'s default "Unbranded": the catalog\'s enrichment needs brand and will fail',
      },
      {
        code: 'enrichment-will-fail',
        attribute: 'productModel',
        message:
          "variant.barcode is empty in Shopify, so productModel is not set: the catalog's enrichment needs productModel and will fail",
      },
    ]);
  });

  it('without a default, refuses to create a product without brand, and keeps the brand of an existing one', () => {
    const noDefault = demoMapping(
      DEMO_MAPPING_TEXT.replace(
        /vendor:\n {4}attribute: brand\n(.*\n)*? {4}default: Unbranded\n/,
        'vendor: brand\n',
      ),
    );
    const p = product({ vendor: '' });
    const plan = planSync({ shop: SHOP, product: p, mapping: noDefault, stored: [] });
    expect(plan.status).toBe('failed');
    expect(plan.failure).toMatchObject({ code: 'missing-required-attribute', attribute: 'brand' });
    expect(plan.calls).toEqual([]);

    const stored = applyPlan(
      planSync({ shop: SHOP, product: product({ ...p, vendor: 'Acme' }), mapping: noDefault, stored: [] }),
    );
    const update = planSync({ shop: SHOP, product: p, mapping: noDefault, stored });
    expect(update.calls).toEqual([]);
    expect(update.records[0]?.snapshot.brand).toBe('Acme');
    expect(update.notes.map((n) => n.code)).toEqual(['enrichment-will-fail', 'required-attribute-kept']);
  });

  it('sends prices with the shop currency when the mapping says so', () => {
    const withCurrency = demoMapping(
      DEMO_MAPPING_TEXT.replace('price: price ', 'price: { attribute: price, currency: shop } '),
    );
    const plan = planSync({
      shop: { ...SHOP, currencyCode: 'CHF' },
      product: product(),
      mapping: withCurrency,
      stored: [],
    });
    expect(plan.calls[0]).toMatchObject({
      body: { product: { attributes: expect.arrayContaining([{ key: 'price', value: '19.90 CHF' }]) } },
    });
  });
});

describe('planSync: supplierSku', () => {
  const skuMapping = demoMapping(DEMO_MAPPING_TEXT.replace('strategy: shopify-ids', 'strategy: variant-sku'));

  it('uses a variant SKU where present and unique, the derived one otherwise', () => {
    const unique = variant({ sku: 'TEE-S', options: { Size: 'S' } });
    const twiceA = variant({ sku: 'TEE-X', options: { Size: 'M' } });
    const twiceB = variant({ sku: 'TEE-X', options: { Size: 'L' } });
    const elsewhere = variant({ sku: 'TEE-XL', duplicateSkuCount: 1, options: { Size: 'XL' } });
    const taken = variant({ sku: 'TEE-XXL', options: { Size: 'XXL' } });
    const none = variant({ sku: '', options: { Size: 'XS' } });
    const p = product({ variants: [unique, twiceA, twiceB, elsewhere, taken, none] });
    const plan = planSync({
      shop: SHOP,
      product: p,
      mapping: skuMapping,
      stored: [],
      takenSupplierSkus: new Set(['TEE-XXL']),
    });
    expect(plan.records.map((r) => r.supplierSku)).toEqual([
      `demo:product:${p.legacyResourceId}`,
      'TEE-S',
      `demo:variant:${twiceA.legacyResourceId}`,
      `demo:variant:${twiceB.legacyResourceId}`,
      `demo:variant:${elsewhere.legacyResourceId}`,
      `demo:variant:${taken.legacyResourceId}`,
      `demo:variant:${none.legacyResourceId}`,
    ]);
  });

  it('gives a simple product its only variant SKU, and keeps stored supplierSkus whatever the SKU becomes', () => {
    const p = product({ variants: [variant({ sku: 'MUG-1' })] });
    const plan = planSync({ shop: SHOP, product: p, mapping: skuMapping, stored: [] });
    expect(plan.records[0]?.supplierSku).toBe('MUG-1');
    const stored = applyPlan(plan);
    const renamed = { ...p, variants: p.variants.map((v) => ({ ...v, sku: 'MUG-2' })) };
    expect(
      planSync({ shop: SHOP, product: renamed, mapping: skuMapping, stored }).records[0]?.supplierSku,
    ).toBe('MUG-1');
  });

  it('does not give a new variant the SKU its parent took as a simple product', () => {
    const only = variant({ sku: 'MUG-1' });
    const simple = product({ variants: [only] });
    const stored = applyPlan(planSync({ shop: SHOP, product: simple, mapping: skuMapping, stored: [] }));
    const gained = product({
      ...simple,
      variants: [
        { ...only, selectedOptions: [{ name: 'Size', value: 'S' }] },
        variant({ options: { Size: 'M' } }),
      ],
    });
    const plan = planSync({ shop: SHOP, product: gained, mapping: skuMapping, stored });
    expect(plan.records.map((r) => r.supplierSku)).toEqual([
      'MUG-1',
      `demo:variant:${only.legacyResourceId}`,
      expect.stringMatching(/^demo:variant:/),
    ]);
  });

  it('uses the prefix the mapping gives', () => {
    const prefixed = demoMapping(
      DEMO_MAPPING_TEXT.replace('strategy: shopify-ids', 'strategy: shopify-ids\n  prefix: eu-store'),
    );
    const p = product();
    expect(planSync({ shop: SHOP, product: p, mapping: prefixed, stored: [] }).records[0]?.supplierSku).toBe(
      `eu-store:product:${p.legacyResourceId}`,
    );
  });
});
