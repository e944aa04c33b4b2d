import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { demoMapping, product, SHOP, variant } from '../../test/support/sync-plan-inputs.js';
import { NO_EXTRA_SOURCES } from '../clients/shopify/documents/canonical-product.query.js';
import { planSync } from '../product-sync/plan/plan-sync.js';
import { MappingError, type MappingProblem } from './model/mapping-problem.js';
import { readMetafield, readProductField, readVariantField } from './model/source-fields.js';
import { parseMappingFile } from './parse-mapping-file.js';

const RICH = `
version: 1
product:
  title: name
  vendor: brand
  metafields.custom.material: material
  category.fullName: externalCategory
  collections:
    attribute: occasions
    values: { summer-sale: Casual, office: Work, new-in: null }
variant:
  price: price
  metafields.custom.weight_grams: weightGrams
  metafields.custom.title_note: variantTitle
`;

function problemsOf(text: string): MappingProblem[] {
  try {
    demoMapping(text);
  } catch (error) {
    if (error instanceof MappingError) return [...error.problems];
    throw error;
  }
  throw new Error('the mapping was accepted');
}

describe('mapping sources: metafields, category, collections (issue 30)', () => {
  it('reads them from the file and says what the canonical read must ask for', () => {
    const mapping = demoMapping(RICH);
    expect(mapping.productEntries.map((e) => [e.path, e.field])).toContainEqual([
      'product.metafields.custom.material',
      'metafields.custom.material',
    ]);
    expect(mapping.sources).toEqual({
      productMetafields: [{ namespace: 'custom', key: 'material' }],
      variantMetafields: [
        { namespace: 'custom', key: 'weight_grams' },
        { namespace: 'custom', key: 'title_note' },
      ],
      category: true,
      collections: true,
    });
    expect(demoMapping().sources).toEqual(NO_EXTRA_SOURCES);
  });

  it('accepts the example of mappings/README.md', () => {
    const readme = readFileSync(new URL('../../mappings/README.md', import.meta.url), 'utf8');
    const example = [...readme.matchAll(/```yaml\n([\s\S]*?)```/g)].find((m) =>
      m[1]?.includes('metafields.'),
    )?.[1];
    expect(demoMapping(example).sources).toEqual({
      productMetafields: [
        { namespace: 'custom', key: 'fabric' },
        { namespace: 'custom', key: 'care' },
      ],
      variantMetafields: [{ namespace: 'custom', key: 'weight' }],
      category: true,
      collections: true,
    });
  });

  it('refuses a bad namespace or key, and a source a write-back entry targets, with their lines', () => {
    const problems = problemsOf(`
version: 1
product:
  title: name
  vendor: brand
  metafields.ab.material: material
  metafields.custom: fit
  metafields.custom.mat.erial: careInstructions
variant:
  metafields.custom.k: weightGrams
`);
    expect(problems.map((p) => `${p.line} ${p.path}: ${p.message}`)).toEqual([
      '6 product.metafields.ab.material: namespace "ab" must be 3-255 letters, digits, "-" or "_" (or "$app", "$app:<name>")',
      '7 product.metafields.custom: "metafields.custom" must be metafields.<namespace>.<key> (namespace and key without dots)',
      '8 product.metafields.custom.mat.erial: "metafields.custom.mat.erial" must be metafields.<namespace>.<key> (namespace and key without dots)',
      '10 variant.metafields.custom.k: key "k" must be 2-64 letters, digits, "-" or "_"',
    ]);
    const owned = problemsOf(`
version: 1
product:
  title: name
  vendor: brand
  metafields.$app:catalog.material: material
writeBack:
  product:
    careInstructions:
      metafield: { namespace: $app:catalog, key: material, type: multi_line_text_field }
`);
    expect(owned.map((p) => p.message)).toEqual([
      'Shopify field "metafields.$app:catalog.material" is an inbound source (product.metafields.$app:catalog.material): a field has one owner',
    ]);
  });

  it('lets collections feed MULTI_SELECT attributes only', () => {
    expect(
      problemsOf(`
version: 1
product:
  title: name
  vendor: brand
  collections: externalCategory
`).map((p) => p.message),
    ).toEqual([
      'collections is a list: it can only feed a MULTI_SELECT attribute, "externalCategory" is TEXT',
    ]);
    expect(() =>
      parseMappingFile('version: 1\nproduct:\n  title: name\n  vendor: brand\n  categories: x\n'),
    ).toThrow(
      'known: title, handle, vendor, productType, descriptionHtml, status, tags, seo.title, seo.description, legacyResourceId, category, category.fullName, category.id, collections, metafields.<namespace>.<key>',
    );
  });

  it('reads metafield values as text, list metafields as lists, and absent or empty ones as null', () => {
    const source = { namespace: 'custom', key: 'm' };
    const read = (value: string, type: string) => readMetafield({ 'custom.m': { value, type } }, source);
    expect(read('Linen', 'single_line_text_field')).toBe('Linen');
    expect(read('12', 'number_integer')).toBe('12');
    expect(read('["Casual","Work",""]', 'list.single_line_text_field')).toEqual(['Casual', 'Work']);
    expect(read('[1,2.5]', 'list.number_decimal')).toEqual(['1', '2.5']);
    expect(read('[]', 'list.single_line_text_field')).toBeNull();
    expect(read(' ', 'single_line_text_field')).toBeNull();
    expect(readMetafield({ 'custom.m': null }, source)).toBeNull();
    expect(readMetafield(undefined, source)).toBeNull();
    const p = product({ category: null, collections: [] });
    expect(readProductField(p, 'category')).toBeNull();
    expect(readProductField(p, 'collections')).toBeNull();
    expect(readVariantField(variant(), 'metafields.custom.m')).toBeNull();
  });

  it('maps them into the records like other fields: value tables, lists, and a list into a single value is a gap', () => {
    const p = product({
      metafields: {
        'custom.material': { value: 'Linen', type: 'single_line_text_field' },
      },
      category: {
        id: 'gid://shopify/TaxonomyCategory/aa-1-13-8',
        name: 'T-Shirts',
        fullName: 'Apparel & Accessories > Clothing > Clothing Tops > T-Shirts',
      },
      collections: ['summer-sale', 'new-in', 'office'],
      variants: [
        variant({
          options: { Size: 'Small' },
          metafields: {
            'custom.weight_grams': { value: '180', type: 'number_integer' },
            'custom.title_note': { value: '["a","b"]', type: 'list.single_line_text_field' },
          },
        }),
        variant({ options: { Size: 'Medium' } }),
      ],
    });
    const plan = planSync({ shop: SHOP, product: p, mapping: demoMapping(RICH), stored: [] });
    const bodies = plan.calls.map((c) => {
      const body = (c as { body?: { attributes?: unknown; product?: { attributes?: unknown } } }).body;
      return body?.product?.attributes ?? body?.attributes;
    });
    expect(bodies[0]).toEqual([
      { key: 'name', value: 'Basic tee' },
      { key: 'brand', value: 'Acme' },
      { key: 'material', value: 'Linen' },
      { key: 'externalCategory', value: 'Apparel & Accessories > Clothing > Clothing Tops > T-Shirts' },
      { key: 'occasions', value: ['Casual', 'Work'] },
    ]);
    expect(bodies[1]).toContainEqual({ key: 'weightGrams', value: '180' });
    expect(plan.gaps).toEqual([
      expect.objectContaining({
        entry: 'variant.metafields.custom.title_note',
        reason: 'invalid-value',
        message:
          'a list of 2 values does not fit variantTitle (TEXT): only a MULTI_SELECT attribute takes several',
      }),
    ]);
  });
});
