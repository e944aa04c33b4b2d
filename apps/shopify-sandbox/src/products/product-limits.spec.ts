import { describe, expect, it } from 'vitest';
import { normalizeHandle, PRODUCT_LIMITS, productLimitProblems } from './product-limits.js';

const tags = (n: number) => Array.from({ length: n }, (_, i) => `tag-${i}`);

describe('product limits', () => {
  it('allows 250 tags of 255 characters, a 255-character title and handle', () => {
    expect(PRODUCT_LIMITS).toEqual({
      maxTags: 250,
      maxTagLength: 255,
      maxTitleLength: 255,
      maxHandleLength: 255,
    });
    expect(
      productLimitProblems(
        { title: 't'.repeat(255), handle: 'h'.repeat(255), tags: [...tags(249), 'x'.repeat(255)] },
        'create',
      ),
    ).toEqual([]);
  });

  it('refuses more, in Shopify’s words for create and update', () => {
    expect(productLimitProblems({ tags: tags(251) }, 'create')).toEqual([
      { field: 'tags', rest: 'Tags cannot be more than 250.', graphql: 'Tags cannot be more than 250.' },
    ]);
    expect(productLimitProblems({ tags: tags(251) }, 'update')[0].graphql).toBe(
      'Tags cannot be added as the product already exceeds the new limit of 250 tags.',
    );
    expect(productLimitProblems({ tags: ['x'.repeat(256)] }, 'update')).toEqual([
      {
        field: 'tags',
        rest: 'is too long (maximum is 255 characters)',
        graphql: 'Tags is too long (maximum is 255 characters)',
      },
    ]);
    expect(productLimitProblems({ title: 't'.repeat(256), handle: 'h'.repeat(256) }, 'update')).toEqual([
      {
        field: 'title',
        rest: 'is too long (maximum is 255 characters)',
        graphql: 'Title is too long (maximum is 255 characters)',
      },
      {
        field: 'handle',
        rest: 'is too long (maximum is 255 characters)',
        graphql: 'Handle is too long (maximum is 255 characters)',
      },
    ]);
  });

  it('normalises a given handle as Shopify stores it', () => {
    expect(normalizeHandle('Linen Shirt!')).toBe('linen-shirt');
    expect(normalizeHandle('  Café--Crème ')).toBe('cafe-creme');
    expect(normalizeHandle('summer-2026')).toBe('summer-2026');
    expect(normalizeHandle('!!!')).toBeUndefined();
  });
});
