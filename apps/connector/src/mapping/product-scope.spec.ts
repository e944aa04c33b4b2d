import { describe, expect, it } from 'vitest';
import type { ProductScope } from './model/mapping-file.js';
import { MappingError, type MappingProblem } from './model/mapping-problem.js';
import { parseMappingFile } from './parse-mapping-file.js';
import { type ScopeFacts, scopeKey, scopeNeeds, scopeSearches, scopeVerdict } from './product-scope.js';

const BASE = `
version: 1
product:
  title: name
  vendor: brand
`;

function scopeOf(yaml: string): ProductScope | null {
  return parseMappingFile(`${BASE}scope:\n${yaml}`).scope;
}

function problemsOf(yaml: string): MappingProblem[] {
  try {
    parseMappingFile(`${BASE}scope:\n${yaml}`, 'shop.yaml');
  } catch (error) {
    if (error instanceof MappingError) return [...error.problems];
    throw error;
  }
  throw new Error('the file was accepted');
}

const product = (facts: Partial<ScopeFacts> = {}): ScopeFacts => ({
  status: 'ACTIVE',
  tags: ['Enrich', 'sale'],
  vendor: 'Acme',
  productType: 'Shirts',
  ...facts,
});

describe('scope in the mapping file', () => {
  it('reads every criterion; collections by handle or id (digits become a gid)', () => {
    const scope = scopeOf(`
  tags: [enrich]
  vendors: [Acme]
  productTypes: [Shirts]
  collections: [summer, 42, gid://shopify/Collection/7]
  categories: [gid://shopify/TaxonomyCategory/aa-1-13]
  statuses: [active, draft]
  metafield: { namespace: custom, key: enrich, value: true }
`);
    expect(scope).toEqual({
      tags: ['enrich'],
      vendors: ['Acme'],
      productTypes: ['Shirts'],
      collections: [
        { kind: 'handle', handle: 'summer' },
        { kind: 'id', id: 'gid://shopify/Collection/42' },
        { kind: 'id', id: 'gid://shopify/Collection/7' },
      ],
      categories: ['gid://shopify/TaxonomyCategory/aa-1-13'],
      statuses: ['ACTIVE', 'DRAFT'],
      metafield: { namespace: 'custom', key: 'enrich', value: 'true' },
    });
    expect(parseMappingFile(BASE).scope).toBeNull();
  });

  it('refuses unknown keys, statuses and categories, and a scope that asks nothing, naming each with its line', () => {
    expect(problemsOf('  tag: [enrich]\n')).toEqual([
      expect.objectContaining({
        path: 'scope.tag',
        line: 7,
        message: expect.stringContaining('unknown key "tag"'),
      }),
      expect.objectContaining({ path: 'scope', message: expect.stringContaining('asks nothing') }),
    ]);
    expect(problemsOf('  statuses: [ACTIVE, LIVE]\n').map((p) => p.path)).toEqual([
      'scope.statuses',
      'scope',
    ]);
    expect(problemsOf('  categories: [apparel]\n')[0]).toMatchObject({
      path: 'scope.categories[0]',
      message: expect.stringContaining('TaxonomyCategory'),
    });
  });
});

describe('scopeVerdict', () => {
  it('without a scope, lets the default statuses decide', () => {
    expect(scopeVerdict(null, ['ACTIVE'], product())).toEqual({ inScope: true });
    expect(scopeVerdict(null, ['ACTIVE'], product({ status: 'DRAFT' }))).toEqual({
      inScope: false,
      reason: 'status DRAFT is not synced',
    });
  });

  it('takes scope.statuses over the default statuses', () => {
    const scope = scopeOf('  statuses: [DRAFT]\n');
    expect(scopeVerdict(scope, ['ACTIVE'], product({ status: 'DRAFT' })).inScope).toBe(true);
    expect(scopeVerdict(scope, ['ACTIVE'], product({ status: 'ACTIVE' })).inScope).toBe(false);
  });

  it('needs every criterion given (any value of each), ignoring case', () => {
    const scope = scopeOf('  tags: [ENRICH, other]\n  vendors: [acme]\n');
    expect(scopeVerdict(scope, ['ACTIVE'], product()).inScope).toBe(true);
    expect(scopeVerdict(scope, ['ACTIVE'], product({ tags: ['sale'] }))).toEqual({
      inScope: false,
      reason: 'no tag of the scope (ENRICH, other)',
    });
    expect(scopeVerdict(scope, ['ACTIVE'], product({ vendor: 'Other' })).inScope).toBe(false);
  });

  it('judges collections, category and metafield only once they were read', () => {
    const scope = scopeOf(
      '  collections: [summer, 9]\n  categories: [gid://shopify/TaxonomyCategory/aa-1]\n  metafield: { namespace: custom, key: go, value: "yes" }\n',
    );
    expect(scopeVerdict(scope, ['ACTIVE'], product()).inScope).toBe(true);
    const read = { categoryId: 'gid://shopify/TaxonomyCategory/aa-1', metafieldValue: 'yes' };
    const inSummer = [{ id: 'gid://shopify/Collection/1', handle: 'Summer' }];
    const inNine = [{ id: 'gid://shopify/Collection/9', handle: 'nine' }];
    expect(scopeVerdict(scope, ['ACTIVE'], product({ ...read, collections: inSummer })).inScope).toBe(true);
    expect(scopeVerdict(scope, ['ACTIVE'], product({ ...read, collections: inNine })).inScope).toBe(true);
    expect(scopeVerdict(scope, ['ACTIVE'], product({ ...read, collections: [] }))).toEqual({
      inScope: false,
      reason: 'in no collection of the scope',
    });
    expect(
      scopeVerdict(scope, ['ACTIVE'], product({ ...read, collections: inNine, metafieldValue: null }))
        .inScope,
    ).toBe(false);
    expect(
      scopeVerdict(scope, ['ACTIVE'], product({ ...read, collections: inNine, categoryId: null })).inScope,
    ).toBe(false);
    expect(scopeNeeds(scope)).toEqual({
      collections: true,
      category: true,
      metafield: { namespace: 'custom', key: 'go' },
    });
    expect(scopeNeeds(scopeOf('  tags: [a]\n'))).toEqual({
      collections: false,
      category: false,
      metafield: null,
    });
  });
});

describe('scopeSearches and scopeKey', () => {
  it('searches one criterion, one query per value, never OR', () => {
    expect(scopeSearches(scopeOf('  tags: [enrich, "it\'s"]\n  vendors: [Acme]\n'), ['ACTIVE'], [])).toEqual([
      "tag:'enrich'",
      "tag:'it\\'s'",
    ]);
    expect(
      scopeSearches(
        scopeOf('  collections: [summer]\n  tags: [a]\n'),
        ['ACTIVE'],
        ['gid://shopify/Collection/12'],
      ),
    ).toEqual(['collection_id:12']);
    expect(scopeSearches(null, ['ACTIVE', 'UNLISTED'], [])).toEqual(['status:active', 'status:unlisted']);
  });

  it('tells a changed scope from the same one written otherwise', () => {
    const a = scopeKey(scopeOf('  tags: [B, a]\n'), ['ACTIVE']);
    expect(scopeKey(scopeOf('  tags: [a, b]\n'), ['ACTIVE'])).toBe(a);
    expect(scopeKey(scopeOf('  tags: [a]\n'), ['ACTIVE'])).not.toBe(a);
    expect(scopeKey(null, ['ACTIVE'])).not.toBe(scopeKey(null, ['ACTIVE', 'DRAFT']));
  });
});
