import { describe, expect, it } from 'vitest';
import type { MappingProblem } from './model/mapping-problem.js';
import { MappingError } from './model/mapping-problem.js';
import { parseMappingFile } from './parse-mapping-file.js';

const MINIMAL = `
version: 1
product:
  title: name
  vendor: brand
`;

/** The problems a refused file reports. */
function problemsOf(text: string): MappingProblem[] {
  try {
    parseMappingFile(text, 'shop.yaml');
  } catch (error) {
    if (error instanceof MappingError) return [...error.problems];
    throw error;
  }
  throw new Error('the file was accepted');
}

describe('parseMappingFile', () => {
  it('reads the short and the long forms, in file order', () => {
    const file = parseMappingFile(`
version: 1
shop: demo.myshopify.com
product:
  title: name
  vendor: { attribute: brand, default: Unbranded }
  productType:
    attribute: productCategory
    values: { Shirts: apparel-tops-shirts, Misc: null }
variant:
  price: { attribute: price, currency: shop }
  barcode: [gtin, { attribute: productModel, parent: firstVariant }]
  options:
    Size: size
    Color: { attribute: color, aliases: [Colour], caseSensitive: true }
`);
    expect(file.shop).toBe('demo.myshopify.com');
    expect(file.supplierSku).toEqual({ strategy: 'shopify-ids', prefix: null });
    expect(file.product.map((e) => [e.path, e.attribute])).toEqual([
      ['product.title', 'name'],
      ['product.vendor', 'brand'],
      ['product.productType', 'productCategory'],
    ]);
    expect(file.product[1]?.default).toBe('Unbranded');
    expect(file.product[2]?.values).toEqual([
      ['Shirts', 'apparel-tops-shirts'],
      ['Misc', null],
    ]);
    expect(file.variant.map((e) => [e.path, e.attribute, e.parent, e.currency])).toEqual([
      ['variant.price', 'price', 'none', 'shop'],
      ['variant.barcode[0]', 'gtin', 'none', null],
      ['variant.barcode[1]', 'productModel', 'firstVariant', null],
    ]);
    expect(file.options).toEqual([
      {
        path: 'variant.options.Size',
        name: 'Size',
        aliases: [],
        attribute: 'size',
        values: null,
        caseSensitive: false,
        unknownValues: 'gap',
      },
      {
        path: 'variant.options.Color',
        name: 'Color',
        aliases: ['Colour'],
        attribute: 'color',
        values: null,
        caseSensitive: true,
        unknownValues: 'gap',
      },
    ]);
    expect(file.lines?.get('variant.options.Color')).toBe(15);
  });

  it('reads JSON too', () => {
    const file = parseMappingFile(
      '{"version": 1, "product": {"title": "name", "vendor": "brand"}, "variant": {"sku": "gtin"}}',
    );
    expect(file.variant[0]?.field).toBe('sku');
  });

  it('refuses unknown keys at every level, naming the entry and its line', () => {
    const problems = problemsOf(`
version: 1
colour: x
product:
  title: name
  vendor: brand
  colour: color
variant:
  options:
    Size: { attribute: size, valuez: {} }
writeBack:
  product:
    seoTitle: { metafield: { namespace: custom, key: seo_title, type: single_line_text_field, owner: me } }
`);
    expect(problems).toEqual([
      { path: 'colour', line: 3, message: expect.stringContaining('unknown key "colour"') },
      {
        path: 'product.colour',
        line: 7,
        message: expect.stringContaining('not a product field of the canonical read'),
      },
      {
        path: 'variant.options.Size.valuez',
        line: 10,
        message: expect.stringContaining('unknown key "valuez"'),
      },
      {
        path: 'writeBack.product.seoTitle.metafield.owner',
        line: 13,
        message: expect.stringContaining('unknown key "owner"'),
      },
    ]);
  });

  it('names wrong types and values', () => {
    const problems = problemsOf(`
version: 2
supplierSku: { strategy: sku, prefix: "a b" }
product:
  title: name
  vendor: { attribute: brand, currency: euro, default: 12 }
variant:
  options:
    Size:
      attribute: size
      values: { "36": 36 }
`);
    expect(problems.map((p) => `${p.path}: ${p.message}`)).toEqual([
      "version: must be 1 (the mapping format's version), got 2",
      'supplierSku.strategy: must be one of shopify-ids, variant-sku, got "sku"',
      'supplierSku.prefix: must be 1 to 64 letters, digits, ".", "_" or "-", got "a b"',
      'product.vendor.currency: must be "shop" or an ISO currency code like "EUR", got "euro"',
      'product.vendor.default: must be a string, got number 12 (quote it: "...")',
      'variant.options.Size.values.36: must map to a string or null, got number 36 (quote it: "...")',
    ]);
  });

  it('refuses value-map keys that differ only in case', () => {
    const problems = problemsOf(`${MINIMAL}
variant:
  options:
    Color: { attribute: color, values: { Gray: Grey, gray: Grey } }
`);
    expect(problems).toEqual([
      expect.objectContaining({
        path: 'variant.options.Color.values.gray',
        message: expect.stringContaining('"Gray"'),
      }),
    ]);
  });

  it('reports YAML syntax errors and duplicate keys with their line', () => {
    const problems = problemsOf('version: 1\nproduct:\n  title: name\n  title: brand\n');
    expect(problems).toHaveLength(1);
    expect(problems[0]?.line).toBe(4);
    expect(problems[0]?.message).toMatch(/unique/i);
  });

  it('refuses a field with two owners', () => {
    const problems = problemsOf(`
version: 1
product:
  title: name
  handle: name
  vendor: brand
  seo.title: externalCategory
variant:
  barcode: gtin
  sku: gtin
  options:
    Size: size
    Sizes: { attribute: weightGrams, aliases: [size] }
writeBack:
  product:
    description: descriptionHtml
    seoTitle: seo.title
    aiTitle: title
    aiBulletPoints: title
`);
    expect(problems.map((p) => `${p.path}: ${p.message}`)).toEqual([
      'product.handle: attribute "name" already has an owner, product.title: a field has one owner',
      'variant.sku: attribute "gtin" already has an owner, variant.barcode: a field has one owner',
      'variant.options.Sizes: option name "size" is also matched by variant.options.Size (names and aliases match ignoring case)',
      'writeBack.product.seoTitle: Shopify field "seo.title" is an inbound source (product.seo.title): a field has one owner',
      'writeBack.product.aiTitle: Shopify field "title" is an inbound source (product.title): a field has one owner',
      'writeBack.product.aiBulletPoints: Shopify field "title" is an inbound source (product.title): a field has one owner',
      'writeBack.product.aiBulletPoints: Shopify product field "title" is already the target of writeBack.product.aiTitle: a field has one owner',
    ]);
    expect(problems[0]?.line).toBe(5);
  });

  it('refuses write-back of an attribute that Shopify feeds', () => {
    const problems = problemsOf(`${MINIMAL}
  descriptionHtml: description
writeBack:
  product:
    description: { metafield: { namespace: app, key: description, type: rich_text_field } }
`);
    expect(problems).toEqual([
      expect.objectContaining({
        path: 'writeBack.product.description',
        message: expect.stringContaining('fed from Shopify by product.descriptionHtml'),
      }),
    ]);
  });

  it('requires name and brand to be fed, and refuses system attributes and media as targets', () => {
    const problems = problemsOf(`
version: 1
product:
  title: supplierSku
  handle: media
`);
    expect(problems.map((p) => p.path)).toEqual(['product.title', 'product.handle', 'product', 'product']);
    expect(problems[2]?.message).toContain('"name"');
    expect(problems[3]?.message).toContain('"brand"');
  });

  it('reads write-back entries (issue 15 fills in their behaviour)', () => {
    const file = parseMappingFile(`${MINIMAL}
writeBack:
  product:
    seoTitle: seo.title
    aiTags: tags
    aiDescription: { metafield: { namespace: $app:catalog, key: ai_description, type: rich_text_field } }
  variant:
    variantTitle: { metafield: { namespace: $app:catalog, key: title, type: single_line_text_field } }
`);
    expect(file.writeBack.map((w) => [w.path, w.target.kind])).toEqual([
      ['writeBack.product.seoTitle', 'field'],
      ['writeBack.product.aiTags', 'tags'],
      ['writeBack.product.aiDescription', 'metafield'],
      ['writeBack.variant.variantTitle', 'metafield'],
    ]);
    expect(problemsOf(`${MINIMAL}\nwriteBack:\n  variant:\n    variantTitle: title\n`)[0]?.message).toContain(
      'variants take metafield targets only',
    );
  });
});
