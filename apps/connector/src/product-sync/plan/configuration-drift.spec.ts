import { describe, expect, it } from 'vitest';
import { demoCatalogConfiguration } from '../../../test/support/demo-catalog.js';
import {
  applyPlan,
  DEMO_MAPPING_TEXT,
  demoMapping,
  product,
  SHOP,
  variant,
} from '../../../test/support/sync-plan-inputs.js';
import type { CanonicalProduct } from '../../clients/shopify/canonical-product.js';
import type { ValidatedMapping } from '../../mapping/validated-mapping.js';
import { planDeletion } from './plan-deletion.js';
import { planSync } from './plan-sync.js';
import type { PlannedRecord } from './sync-plan.js';

const before = demoMapping();

const tee = product({
  productType: 'T-Shirts',
  variants: [
    variant({ options: { Size: 'S', Color: 'Black' } }),
    variant({ options: { Size: 'M', Color: 'Teal' } }),
  ],
});
const jeans = product({
  productType: 'Jeanz',
  variants: [variant({ options: { Size: '32', Material: 'Denim' } })],
});
const mug = product({ productType: 'Mugs', variants: [variant({ barcode: '1' })] });

/** Which records of these products a configuration change makes drift: `title/variant-index`. */
function drifted(after: ValidatedMapping, ...products: CanonicalProduct[]): string[] {
  const out: string[] = [];
  for (const p of products) {
    const plan = planSync({ shop: SHOP, product: p, mapping: before, stored: [] });
    plan.records.forEach((record: PlannedRecord, i) => {
      const configuration = record.configuration;
      if (configuration && after.configurationHash(configuration.dependencies) !== configuration.hash) {
        out.push(`${p.productType}/${i}`);
      }
    });
  }
  return out;
}

describe('configuration drift', () => {
  it('is stable: the same file and account give the same hashes, comments and layout aside', () => {
    const again = demoMapping(`# a comment\n${DEMO_MAPPING_TEXT}\n`);
    expect(again.hash).toBe(before.hash);
    expect(drifted(again, tee, jeans, mug)).toEqual([]);
  });

  it('a new category map line resyncs only the products of that product type', () => {
    const after = demoMapping(
      DEMO_MAPPING_TEXT.replace(
        '      Jeans: apparel-bottoms-jeans',
        '      Jeans: apparel-bottoms-jeans\n      Jeanz: apparel-bottoms-jeans',
      ),
    );
    expect(after.hash).not.toBe(before.hash);
    expect(drifted(after, tee, jeans, mug)).toEqual(['Jeanz/0']);
  });

  it('a DROPDOWN value added in the portal retries the records with that gap, and nothing else', () => {
    const catalog = demoCatalogConfiguration();
    const color = catalog.attributes.find((a) => a.key === 'color');
    color?.option.values?.push('Teal');
    const after = demoMapping(DEMO_MAPPING_TEXT, catalog);
    expect(drifted(after, tee, jeans, mug)).toEqual(['T-Shirts/2']);
  });

  it('mapping a new option resyncs the variants that have it', () => {
    const after = demoMapping(
      DEMO_MAPPING_TEXT.replace('  options:', '  options:\n    Material: weightGrams'),
    );
    expect(drifted(after, tee, jeans, mug)).toEqual(['Jeanz/1']);
  });

  it('a changed value map line resyncs the records whose value it maps', () => {
    const after = demoMapping(DEMO_MAPPING_TEXT.replace('        Small: S\n', ''));
    const small = product({
      variants: [variant({ options: { Size: 'Small' } }), variant({ options: { Size: 'M' } })],
    });
    expect(drifted(after, small, tee)).toEqual(['T-Shirts/1']);
  });

  it('a new product-level entry resyncs every product record, and no variant', () => {
    const after = demoMapping(
      DEMO_MAPPING_TEXT.replace('  title: name\n', '  title: name\n  handle: externalCategory\n'),
    );
    expect(drifted(after, tee, jeans, mug)).toEqual(['T-Shirts/0', 'Jeanz/0', 'Mugs/0']);
  });

  it('a variant entry change resyncs every record that takes variant values', () => {
    const after = demoMapping(DEMO_MAPPING_TEXT.replace('  compareAtPrice: compareAtPrice\n', ''));
    expect(drifted(after, tee, mug)).toEqual(['T-Shirts/0', 'T-Shirts/1', 'T-Shirts/2', 'Mugs/0']);
  });

  it('a changed attribute definition resyncs the records built with it', () => {
    const catalog = demoCatalogConfiguration();
    const gtin = catalog.attributes.find((a) => a.key === 'gtin');
    if (gtin) gtin.type = 'LONG_TEXT';
    const after = demoMapping(DEMO_MAPPING_TEXT, catalog);
    expect(drifted(after, mug)).toEqual(['Mugs/0']);
  });
});

describe('planDeletion', () => {
  it('deletes the variants, then the product, and tombstones every row', () => {
    const stored = applyPlan(planSync({ shop: SHOP, product: tee, mapping: before, stored: [] }));
    const plan = planDeletion(stored);
    const own = stored.find((r) => r.shopifyVariantId === null);
    expect(plan.calls.map((c) => [c.kind, 'skuId' in c ? c.skuId : null])).toEqual([
      ['deleteVariant', stored[1]?.skuId],
      ['deleteVariant', stored[2]?.skuId],
      ['deleteProduct', own?.skuId],
    ]);
    expect(plan.records.map((r) => r.action)).toEqual(['delete', 'delete', 'delete']);
  });
});
