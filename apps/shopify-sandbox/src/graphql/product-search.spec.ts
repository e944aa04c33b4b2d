import { describe, expect, it } from 'vitest';
import type { ProductRecord } from '../products/product.model.js';
import { parseProductSearch } from './product-search.js';

const product = (overrides: Partial<ProductRecord>): ProductRecord => ({
  id: 1,
  title: 'Blue Shirt',
  bodyHtml: null,
  vendor: 'Acme',
  productType: 'Shirts',
  handle: 'blue-shirt',
  status: 'active',
  tags: ['Summer'],
  templateSuffix: null,
  seoTitle: null,
  seoDescription: null,
  publishedAt: null,
  createdAt: Date.UTC(2026, 0, 1),
  updatedAt: Date.UTC(2026, 0, 2, 12),
  options: [],
  variants: [],
  images: [],
  ...overrides,
});

describe('parseProductSearch', () => {
  it('compares updated_at with quoted and bare dates, at second precision', () => {
    const p = product({ updatedAt: Date.UTC(2026, 0, 2, 12, 0, 0, 700) });
    expect(parseProductSearch("updated_at:>'2026-01-02T11:59:59Z'").matches(p)).toBe(true);
    expect(parseProductSearch('updated_at:>2026-01-02T12:00:00Z').matches(p)).toBe(false);
    expect(parseProductSearch('updated_at:>=2026-01-02T12:00:00Z').matches(p)).toBe(true);
    expect(parseProductSearch("updated_at:<='2026-01-02T07:00:00-05:00'").matches(p)).toBe(true);
  });

  it('joins terms with AND, negates, and searches fields', () => {
    const p = product({});
    expect(parseProductSearch('status:active AND vendor:acme tag:summer').matches(p)).toBe(true);
    expect(parseProductSearch('-status:active').matches(p)).toBe(false);
    expect(parseProductSearch('NOT tag:winter').matches(p)).toBe(true);
    expect(parseProductSearch('title:blue*').matches(p)).toBe(true);
    expect(parseProductSearch('shirt').matches(p)).toBe(true);
  });

  it('ignores unknown fields with a warning, and refuses OR', () => {
    const search = parseProductSearch('colour:red');
    expect(search.matches(product({}))).toBe(true);
    expect(search.warnings).toEqual([{ field: 'colour', message: 'Invalid search field for this query.' }]);
    expect(() => parseProductSearch('tag:a OR tag:b')).toThrow(/does not support OR/);
  });
});
