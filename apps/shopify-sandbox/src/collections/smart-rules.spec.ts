import { describe, expect, it } from 'vitest';
import type { ProductRecord } from '../products/product.model.js';
import { matchesRule, matchesRules, parseRules } from './smart-rules.js';

const product = (fields: Partial<ProductRecord>): ProductRecord =>
  ({
    title: 'Wool Hat',
    vendor: 'Acme',
    productType: 'Hats',
    tags: ['winter', 'wool'],
    variants: [],
    ...fields,
  }) as ProductRecord;

describe('smart collection rules', () => {
  it('reads REST rules and refuses unknown columns, relations and blank conditions', () => {
    expect(parseRules([{ column: 'tag', relation: 'equals', condition: 'x' }])).toEqual({
      rules: [{ column: 'tag', relation: 'equals', condition: 'x' }],
    });
    expect(parseRules([{ column: 'colour', relation: 'equals', condition: 'x' }])).toEqual({
      errors: ['column is not included in the list'],
    });
    expect(parseRules([{ column: 'vendor', relation: 'greater_than', condition: 'x' }])).toEqual({
      errors: ['relation is not included in the list'],
    });
    expect(parseRules([{ column: 'vendor', relation: 'equals', condition: ' ' }])).toEqual({
      errors: ["condition can't be blank"],
    });
    expect(parseRules([])).toEqual({ errors: ["can't be blank"] });
  });

  it('matches text case-insensitively, each relation as named', () => {
    const hat = product({});
    const rule = (column: 'title' | 'vendor' | 'type' | 'tag', relation: string, condition: string) =>
      matchesRule(hat, { column, relation, condition } as never);
    expect(rule('vendor', 'equals', 'ACME')).toBe(true);
    expect(rule('vendor', 'not_equals', 'acme')).toBe(false);
    expect(rule('title', 'starts_with', 'wool')).toBe(true);
    expect(rule('title', 'ends_with', 'hat')).toBe(true);
    expect(rule('type', 'contains', 'at')).toBe(true);
    expect(rule('type', 'not_contains', 'at')).toBe(false);
    expect(rule('tag', 'equals', 'Winter')).toBe(true);
    expect(rule('tag', 'not_equals', 'winter')).toBe(false);
    expect(rule('tag', 'not_equals', 'summer')).toBe(true);
  });

  it('compares variant prices as numbers', () => {
    const priced = product({
      variants: [{ price: '9.50' }, { price: '20.00' }] as ProductRecord['variants'],
    });
    expect(matchesRule(priced, { column: 'variant_price', relation: 'greater_than', condition: '19' })).toBe(
      true,
    );
    expect(matchesRule(priced, { column: 'variant_price', relation: 'less_than', condition: '9' })).toBe(
      false,
    );
  });

  it('applies all rules, or any with disjunctive', () => {
    const rules = [
      { column: 'vendor', relation: 'equals', condition: 'acme' },
      { column: 'tag', relation: 'equals', condition: 'summer' },
    ] as const;
    expect(matchesRules(product({}), [...rules], false)).toBe(false);
    expect(matchesRules(product({}), [...rules], true)).toBe(true);
    expect(matchesRules(product({}), [], true)).toBe(false);
  });
});
