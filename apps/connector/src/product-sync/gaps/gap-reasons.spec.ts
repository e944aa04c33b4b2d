import { describe, expect, it } from 'vitest';
import type { MappingGap, PlanNote } from '../plan/index.js';
import { blockedBy, gapSummary, productGapReasons } from './gap-reasons.js';

const CATEGORY =
  'category "Apparel" is not a leaf category of the account (it has apparel-tops, apparel-bottoms): map it to one of its leaves in product.productType.values';
const TEAL =
  '"Teal" is not an allowed value of color: add it to variant.options.Color.values, or to the attribute in the catalog';
const NO_MODEL =
  "variant.barcode is empty in Shopify (first variant), so productModel is not set: the catalog's enrichment needs productModel and will fail";

const gap = (message: string, attribute: string, variant: string | null): MappingGap => ({
  record: {
    kind: variant === null ? 'parent' : 'variant',
    shopifyVariantId: variant,
    supplierSku: `s-${variant}`,
  },
  entry: attribute === 'color' ? 'variant.options.Color' : 'product.productType',
  attribute,
  values: ['x'],
  reason: 'unknown-value',
  message,
});
const note = (code: PlanNote['code'], message: string, attribute: string): PlanNote => ({
  code,
  message,
  attribute,
});

describe('productGapReasons', () => {
  it('gives one reason per cause, counting the records each touches', () => {
    const reasons = productGapReasons({
      gaps: [gap(CATEGORY, 'productCategory', null), gap(TEAL, 'color', '11'), gap(TEAL, 'color', '12')],
      notes: [
        note('enrichment-will-fail', NO_MODEL, 'productModel'),
        note('required-attribute-kept', 'Shopify gives no name; kept', 'name'),
      ],
      failure: null,
    });
    expect(reasons).toEqual([
      { reason: CATEGORY, code: 'unknown-value', attribute: 'productCategory', records: 1 },
      { reason: TEAL, code: 'unknown-value', attribute: 'color', records: 2 },
      { reason: NO_MODEL, code: 'enrichment-will-fail', attribute: 'productModel', records: 1 },
    ]);
    expect(blockedBy(reasons)).toBe(false);
  });

  it('puts a create the plan refused first, with no record (the product is blocked)', () => {
    const message =
      'the catalog needs "brand" to create a product, and the product gives none (give the entry a default)';
    const reasons = productGapReasons({
      gaps: [],
      notes: [],
      failure: { code: 'missing-required-attribute', attribute: 'brand', message },
    });
    expect(reasons).toEqual([
      { reason: message, code: 'missing-required-attribute', attribute: 'brand', records: 0 },
    ]);
    expect(blockedBy(reasons)).toBe(true);
  });

  it('has no reason for a plan without gaps, or one that failed for something else', () => {
    expect(
      productGapReasons({
        gaps: [],
        notes: [note('unmapped-option', 'option Material has no entry', 'material')],
        failure: { code: 'variant-limit-exceeded', message: 'over 200 variants' },
      }),
    ).toEqual([]);
  });
});

describe('gapSummary', () => {
  it("names the gaps in words (a sync record's detail), never only their number", () => {
    expect(gapSummary([])).toBeNull();
    expect(gapSummary([gap(CATEGORY, 'productCategory', null)])).toBe(`1 mapping gap: ${CATEGORY}`);
    expect(gapSummary([gap(TEAL, 'color', '1'), gap(TEAL, 'color', '2')])).toBe(`2 mapping gaps: ${TEAL}`);
    const many = ['a', 'b', 'c', 'd', 'e'].map((m) => gap(m, 'color', m));
    expect(gapSummary(many)).toBe('5 mapping gaps: a; b; c; and 2 more');
  });
});
