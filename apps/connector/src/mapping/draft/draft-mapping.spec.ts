import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { TaxonomyNode } from '#lib/catalog-contract';
import { demoCatalogConfiguration } from '../../../test/support/demo-catalog.js';
import type { SampledProduct } from '../../clients/shopify/mapping-sample-reads.js';
import { checkMapping } from '../check-mapping.js';
import { parseMappingFile } from '../parse-mapping-file.js';
import { decisionLine } from './draft-decision.js';
import { draftMapping } from './draft-mapping.js';
import { sameName } from './name-match.js';
import { summarizeSample } from './shop-sample.js';

/** The seeded account: its attributes, and its taxonomy with the names the seed gives. */
function seededAccount() {
  const seed = JSON.parse(
    readFileSync(new URL('../../../../catalog-sandbox/seed/default.json', import.meta.url), 'utf8'),
  ) as { accounts: Array<{ taxonomy: TaxonomyNode[] }> };
  const named = (node: TaxonomyNode): TaxonomyNode => ({
    ...node,
    description: '',
    createdAt: 0,
    children: (node.children ?? []).map(named),
  });
  const attributes = demoCatalogConfiguration().attributes.map((a) =>
    a.key === 'color' ? { ...a, displayName: 'Colour' } : a,
  );
  return { attributes, taxonomy: seed.accounts[0]?.taxonomy.map(named) ?? [] };
}

let next = 1;
function product(
  productType: string,
  options: SampledProduct['options'] = [],
  vendor = 'Acme',
): SampledProduct {
  return {
    productId: String(next++),
    productType,
    vendor,
    simple: options.length === 0,
    options,
    category: null,
  };
}

const sample = summarizeSample(
  'acme.myshopify.com',
  [
    product('Shirts', [
      { name: 'Size', values: ['S', 'M', 'Tiny'] },
      { name: 'Color', values: ['Greys', 'Black'] },
    ]),
    product('shirts ', [{ name: 'Colour', values: ['Navy'] }]),
    product('Knives'),
    product('Apparel', [], ''),
    product('Accessories'),
    product('Sale: 50%'),
    product('', [{ name: 'Material', values: ['Linen'] }]),
  ],
  true,
  {
    product: [
      { namespace: 'custom', key: 'care_instructions', name: 'Care', type: 'multi_line_text_field' },
      { namespace: 'custom', key: 'fabric', name: 'Material', type: 'single_line_text_field' },
      { namespace: 'custom', key: 'mood', name: 'Mood', type: 'single_line_text_field' },
      { namespace: 'app--123--x', key: 'fit', name: 'Fit', type: 'single_line_text_field' },
    ],
    variant: [{ namespace: 'custom', key: 'weight_grams', name: 'Weight', type: 'number_integer' }],
  },
);

describe('draftMapping', () => {
  const catalog = seededAccount();
  const draft = draftMapping({ sample, catalog, draftedAt: '2026-12-01T10:00:00.000Z' });

  it('writes a file the connector reads and the account accepts', () => {
    const mapping = checkMapping(parseMappingFile(draft.file, 'draft.yaml'), catalog);
    expect(mapping.warnings).toEqual([]);
    expect(draft.file).toContain('# Starting mapping of acme.myshopify.com');
    expect(draft.file).toContain('check-config --shop acme.myshopify.com --mapping <this file>');
  });

  it('maps the required attributes and the fields whose names agree', () => {
    const file = parseMappingFile(draft.file);
    const fed = [...file.product, ...file.variant, ...file.options].map((e) => `${e.path} -> ${e.attribute}`);
    expect(fed).toEqual([
      'product.title -> name',
      'product.vendor -> brand',
      'product.descriptionHtml -> description',
      'product.productType -> productCategory',
      'product.metafields.custom.care_instructions -> careInstructions',
      'product.metafields.custom.fabric -> material',
      'variant.price -> price',
      'variant.compareAtPrice -> compareAtPrice',
      'variant.barcode[0] -> gtin',
      'variant.barcode[1] -> productModel',
      'variant.metafields.custom.weight_grams -> weightGrams',
      'variant.options.Color -> color',
      'variant.options.Size -> size',
    ]);
    expect(file.product.find((e) => e.field === 'vendor')?.default).toBe('Unbranded');
    expect(file.product.find((e) => e.field === 'productType')?.values).toEqual([
      ['Shirts', 'apparel-tops-shirts'],
      ['Knives', 'home-kitchen-knives'],
    ]);
    const color = file.options.find((o) => o.name === 'Color');
    expect(color?.aliases).toEqual(['Colour']);
    expect(color?.values).toEqual([['Greys', 'Grey']]);
  });

  it('lists what names could not settle, each marked TODO at its entry', () => {
    expect(draft.decisions.map(decisionLine)).toEqual([
      'product type "Accessories" (1 product): no leaf category of that name (and none alike: choose from the taxonomy, or add one)',
      expect.stringMatching(
        /^product type "Apparel" \(1 product\): category "Apparel" \(apparel\) is not a leaf: .* \(candidates: apparel-tops-tshirts \(Apparel > Tops > T-Shirts\), apparel-tops-shirts/,
      ),
      'product type "Sale: 50%" (1 product): no leaf category of that name (and none alike: choose from the taxonomy, or add one)',
      expect.stringMatching(/^no product type \(1 product\): these products have no product type/),
      expect.stringMatching(
        /^option "Material" \(1 product\): attribute "material" has that name but is not variant-specific \(a variant cannot hold it\)/,
      ),
      expect.stringMatching(
        /^option "Size" \(1 product\): "Tiny" is not among the values of size \(DROPDOWN\)/,
      ),
    ]);
    expect(draft.file).toMatch(/# TODO product type "Apparel" \(1 product\): category "Apparel"/);
    expect(draft.file).toMatch(/# TODO "Tiny" \(1 product\) is not a value of size/);
    expect(draft.file).toContain('# not mapped: metafields.custom.mood ("Mood", single_line_text_field)');
    expect(draft.file).not.toContain('app--123--x');
    expect(draft.counts).toEqual({
      productTypes: { matched: 2, seen: 5 },
      options: { matched: 3, seen: 4 },
      metafields: { matched: 3, seen: 5 },
    });
  });

  it('marks a required attribute TODO when no Shopify field feeds it', () => {
    const noModel = {
      ...catalog,
      attributes: catalog.attributes.map((a) =>
        a.key === 'productModel' ? { ...a, option: { disabled: false } } : a,
      ),
    };
    const again = draftMapping({ sample, catalog: noModel, draftedAt: '2026-12-01T10:00:00.000Z' });
    expect(again.decisions.find((d) => d.kind === 'required-unmapped')?.subject).toBe(
      'attribute "productModel"',
    );
    checkMapping(parseMappingFile(again.file), noModel);
  });

  it('drafts from an empty shop', () => {
    const empty = summarizeSample('empty.myshopify.com', [], false, { product: [], variant: [] });
    const drafted = draftMapping({ sample: empty, catalog, draftedAt: '2026-12-01T10:00:00.000Z' });
    checkMapping(parseMappingFile(drafted.file), catalog);
    expect(drafted.decisions).toEqual([]);
    expect(drafted.file).toContain('the shop has no products yet');
  });
});

describe('sameName', () => {
  it('ignores case, spaces, punctuation and plural', () => {
    expect(sameName('T-Shirts', 't shirt')).toBe(true);
    expect(sameName('Knives', 'knife')).toBe(true);
    expect(sameName('Accessories', 'Accessory')).toBe(true);
    expect(sameName('Shirts', 'Shorts')).toBe(false);
    expect(sameName('Apparel', 'apparel-tops')).toBe(false);
  });
});
