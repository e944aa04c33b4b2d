import { describe, expect, it } from 'vitest';
import { USER_ATTRIBUTE_TYPES } from '#lib/catalog-contract';
import { AttributeCatalog } from '../attributes/attribute-catalog.js';
import type { AttributeDefinitionInput } from '../attributes/attribute-definition.js';
import { validateAttributeValue } from '../attributes/attribute-value.validator.js';
import { Taxonomy } from '../taxonomy/taxonomy.js';
import { DeterministicEnricher } from './deterministic-enricher.js';
import type { CategoryFacts, ProductFacts } from './enricher.js';

const taxonomy = new Taxonomy([], 0);
const inputs: AttributeDefinitionInput[] = USER_ATTRIBUTE_TYPES.flatMap((type) => [
  {
    key: `a${type}`,
    displayName: `Some ${type}`,
    type,
    class: 'CUSTOM' as const,
    option: { values: ['Red', 'Green', 'Blue', 'Black'] },
  },
  {
    key: `shortTitle${type}`,
    displayName: 'Short title',
    type,
    class: 'LIB' as const,
    option: { values: ['Only'], maxLength: 12 },
  },
]);
const targets = new AttributeCatalog(inputs, 0, () => true).all().filter((d) => d.class !== 'DEFAULT');

function facts(overrides: Partial<ProductFacts> = {}): ProductFacts {
  return {
    skuId: 'SK00000001',
    supplierSku: 'ACME-TEE-1',
    isVariant: false,
    name: 'Basic <cotton> tee\nwith "quotes" & a very long name that goes on and on and on for quite a while',
    brand: 'Acme & Sons',
    productModel: 'AT-1000',
    description: 'Soft cotton t-shirt.',
    category: { id: 'tees', name: 'T-Shirts', description: 'Knitted tops.', path: ['Apparel', 'Tops'] },
    mediaCount: 0,
    variantValues: {},
    ...overrides,
  };
}

describe('DeterministicEnricher', () => {
  const enricher = new DeterministicEnricher();

  it('fills every user type with a value the attribute validator accepts', async () => {
    const result = await enricher.enrich(facts(), targets);
    if (result.outcome !== 'enriched') throw new Error('expected values');
    expect(result.values.map((v) => v.key).sort()).toEqual(targets.map((d) => d.key).sort());
    for (const { key, value, sources } of result.values) {
      const def = targets.find((d) => d.key === key);
      if (!def) throw new Error(key);
      expect(
        () => validateAttributeValue(def, value, taxonomy),
        `${key}: ${JSON.stringify(value)}`,
      ).not.toThrow();
      expect(sources.length).toBeGreaterThan(0);
      expect(sources.every((s) => /^src_\d+$/.test(s.id))).toBe(true);
    }
  });

  it('gives the same values for the same facts, and other values for other facts', async () => {
    const a = await enricher.enrich(facts(), targets);
    const b = await enricher.enrich(facts(), targets);
    const c = await enricher.enrich(facts({ productModel: 'AT-2000' }), targets);
    expect(b).toEqual(a);
    expect(c).not.toEqual(a);
  });

  it('cites MEDIA only when the product has images, OFFICIAL_BRAND only with a real model', async () => {
    const dropdown = targets.filter((d) => d.key === 'aDROPDOWN');
    const types = async (f: ProductFacts) => {
      const r = await enricher.enrich(f, dropdown);
      return r.outcome === 'enriched' ? r.values[0]?.sources.map((s) => s.type) : [];
    };
    expect(await types(facts())).toEqual(['YOUR_DATA', 'OFFICIAL_BRAND']);
    expect(await types(facts({ mediaCount: 2 }))).toEqual(['YOUR_DATA', 'OFFICIAL_BRAND', 'MEDIA']);
  });

  it('fails with enrichment_failed when productModel is missing', async () => {
    const result = await enricher.enrich(facts({ productModel: null }), targets);
    expect(result).toMatchObject({
      outcome: 'failed',
      error: { code: 'enrichment_failed', details: { productModel: null, suggestion: expect.any(String) } },
    });
  });

  it('fills only text from your data when productModel looks internal', async () => {
    for (const productModel of ['ACME-TEE-1', 'INT-0042', 'tmp_7']) {
      const result = await enricher.enrich(facts({ productModel }), targets);
      if (result.outcome !== 'enriched') throw new Error('expected values');
      const types = result.values.map((v) => targets.find((d) => d.key === v.key)?.type);
      expect(new Set(types)).toEqual(new Set(['TEXT', 'LONG_TEXT', 'RICH_TEXT']));
      expect(result.values.every((v) => v.sources.every((s) => s.type === 'YOUR_DATA'))).toBe(true);
    }
  });

  it('classifies by word overlap with leaf names and descriptions, else to the first leaf', async () => {
    const leaves: CategoryFacts[] = [
      { id: 'tees', name: 'T-Shirts', description: 'Knitted tops.', path: ['Apparel'] },
      { id: 'knives', name: 'Knives', description: 'Kitchen knives and knife sets.', path: ['Home'] },
      { id: 'boots', name: 'Boots', description: 'Footwear covering the ankle.', path: ['Footwear'] },
    ];
    const classify = (name: string, description: string | null = null) =>
      enricher.classify(facts({ name, description, category: null }), leaves);
    expect(await classify('Chef knife', 'A sharp kitchen knife')).toBe('knives');
    expect(await classify('Hiking boots')).toBe('boots');
    expect(await classify('Mystery object')).toBe('tees');
    expect(await enricher.classify(facts(), [])).toBeNull();
  });
});
