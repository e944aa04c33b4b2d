import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { demoCatalogConfiguration } from '../../test/support/demo-catalog.js';
import { checkMapping } from './check-mapping.js';
import { MappingError, type MappingProblem } from './model/mapping-problem.js';
import { parseMappingFile } from './parse-mapping-file.js';

const DEMO = readFileSync(new URL('../../mappings/demo.yaml', import.meta.url), 'utf8');
const BASE = `
version: 1
product:
  title: name
  vendor: brand
`;

function problemsOf(text: string, catalog = demoCatalogConfiguration()): MappingProblem[] {
  try {
    checkMapping(parseMappingFile(text), catalog);
  } catch (error) {
    if (error instanceof MappingError) return [...error.problems];
    throw error;
  }
  throw new Error('the mapping was accepted');
}

describe('checkMapping', () => {
  it('accepts the demo mapping against the demo account', () => {
    const mapping = checkMapping(parseMappingFile(DEMO, 'demo.yaml'), demoCatalogConfiguration());
    expect(mapping.warnings).toEqual([]);
    expect([...mapping.ownedAttributes].sort()).toEqual([
      'brand',
      'color',
      'compareAtPrice',
      'description',
      'gtin',
      'name',
      'price',
      'productCategory',
      'productModel',
      'size',
    ]);
    expect(mapping.optionFor('colour')?.path).toBe('variant.options.Color');
    expect(mapping.optionFor(' SIZE ')?.attribute).toBe('size');
    expect(mapping.optionFor('Material')).toBeUndefined();
  });

  it('accepts the example of mappings/README.md', () => {
    const readme = readFileSync(new URL('../../mappings/README.md', import.meta.url), 'utf8');
    const example = /```yaml\n([\s\S]*?)```/.exec(readme)?.[1] ?? '';
    const mapping = checkMapping(parseMappingFile(example), demoCatalogConfiguration());
    expect(mapping.writeBack.map((w) => w.attribute)).toEqual(['seoTitle']);
    expect(mapping.variantEntries.map((e) => e.path)).toEqual([
      'variant.price',
      'variant.barcode[0]',
      'variant.barcode[1]',
    ]);
  });

  it('refuses a variant mapping onto an attribute that is not variant-specific', () => {
    const problems = problemsOf(`${BASE}
variant:
  sku: externalCategory
  options:
    Fit: fit
`);
    expect(problems).toEqual([
      expect.objectContaining({
        path: 'variant.sku',
        message: expect.stringContaining('"externalCategory" is not variant-specific'),
      }),
      expect.objectContaining({
        path: 'variant.options.Fit',
        message: expect.stringContaining('"fit" is not variant-specific'),
      }),
    ]);
    expect(problems[0]?.line).toBe(8);
  });

  it('refuses DROPDOWN and MULTI_SELECT values that do not exist, suggesting the right case', () => {
    const problems = problemsOf(`${BASE}
  tags: { attribute: occasions, values: { office: Work, party: Party } }
variant:
  options:
    Color: { attribute: color, values: { Gray: grey, Teal: Turquoise } }
`);
    expect(problems.map((p) => `${p.path}: ${p.message}`)).toEqual([
      'product.tags.values.party: "Party" is not one of the values of occasions (MULTI_SELECT): Casual, Work, Sport, Evening, Outdoor, Travel',
      'variant.options.Color.values.Gray: "grey" is not one of the values of color (DROPDOWN); did you mean "Grey"?',
      expect.stringMatching(
        /^variant\.options\.Color\.values\.Teal: "Turquoise" is not one of the values of color \(DROPDOWN\): Black, /,
      ),
    ]);
    expect(problems[1]?.line).toBe(10);
  });

  it('refuses a category that is not a leaf, or does not exist', () => {
    const problems = problemsOf(`${BASE}
  productType:
    attribute: productCategory
    values: { Tops: apparel-tops, Hats: apparel-hats, Shirts: apparel-tops-shirts }
    default: footwear
`);
    expect(problems.map((p) => `${p.path}: ${p.message}`)).toEqual([
      'product.productType.values.Tops: category "apparel-tops" is not a leaf (it has apparel-tops-tshirts, apparel-tops-shirts, apparel-tops-sweaters): only leaves may be assigned',
      'product.productType.values.Hats: category "apparel-hats" does not exist in the account\'s taxonomy',
      'product.productType.default: category "footwear" is not a leaf (it has footwear-sneakers, footwear-boots): only leaves may be assigned',
    ]);
  });

  it('refuses unknown attributes, list fields into single values, and currencies on non-prices', () => {
    const problems = problemsOf(`${BASE}
  descriptionHtml: descripton
  tags: externalCategory
variant:
  barcode: { attribute: gtin, currency: EUR }
  price: { attribute: price, default: "cheap" }
writeBack:
  product:
    aiSummary: seo.description
`);
    expect(problems.map((p) => `${p.path}: ${p.message}`)).toEqual([
      'product.descriptionHtml: attribute "descripton" does not exist in the catalog account',
      'product.tags: tags is a list: it can only feed a MULTI_SELECT attribute, "externalCategory" is TEXT',
      'variant.barcode: "currency" applies to PRICE attributes only; "gtin" is TEXT',
      'variant.price.default: "cheap" is not a valid PRICE value for price',
      'writeBack.product.aiSummary: attribute "aiSummary" does not exist in the catalog account',
    ]);
  });

  it('suggests a key that differs only in case', () => {
    expect(problemsOf(`${BASE}\n  handle: ProductModel\n`)[0]?.message).toContain(
      'did you mean "productModel"?',
    );
  });

  it('warns about, but accepts, a disabled attribute', () => {
    const mapping = checkMapping(
      parseMappingFile(`${BASE}\n  handle: legacyCode\n`),
      demoCatalogConfiguration(),
    );
    expect(mapping.warnings).toEqual([
      { path: 'product.handle', line: 7, message: 'attribute "legacyCode" is disabled in the account' },
    ]);
  });

  it('says every problem at once in the error message', () => {
    const text = `${BASE}\nvariant:\n  sku: externalCategory\n  title: nope\n`;
    expect(() => checkMapping(parseMappingFile(text), demoCatalogConfiguration(), 'shop.yaml')).toThrow(
      /^mapping shop\.yaml refused \(2 problems\):\n {2}- 8: variant\.sku: attribute "externalCategory" is not variant-specific.*\n {2}- 9: variant\.title: attribute "nope" does not exist/,
    );
  });
});
