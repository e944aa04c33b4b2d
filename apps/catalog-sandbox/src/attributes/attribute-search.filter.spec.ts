import { describe, expect, it } from 'vitest';
import { errorOf } from '../../test/error-of.js';
import { parseAttributeFilter } from './attribute-search.filter.js';

describe('parseAttributeFilter', () => {
  it('defaults to every scope and no other condition', () => {
    expect(parseAttributeFilter({})).toEqual({
      linkedCategories: null,
      scopes: ['GLOBAL', 'INHERITED', 'DIRECT'],
      variantable: 'any',
      key: [],
    });
  });

  it('reads option.variantable nested and dotted', () => {
    expect(parseAttributeFilter({ option: { variantable: true } }).variantable).toBe('flagged');
    expect(parseAttributeFilter({ 'option.variantable': { $exists: false } }).variantable).toBe('unflagged');
    expect(parseAttributeFilter({ 'option.variantable': { $exists: true } }).variantable).toBe('flagged');
    const clash = errorOf(() =>
      parseAttributeFilter({ option: { variantable: true }, 'option.variantable': { $exists: false } }),
    );
    expect(clash.code).toBe('invalid_query_structure');
  });

  it('refuses unknown fields and operators', () => {
    expect(errorOf(() => parseAttributeFilter({ categories: [] })).extras.details).toMatchObject({
      field: 'categories',
    });
    expect(errorOf(() => parseAttributeFilter({ 'option.variantable': { $gt: 1 } })).code).toBe(
      'invalid_query_structure',
    );
    expect(errorOf(() => parseAttributeFilter({ $or: [] })).code).toBe('unsupported_operator');
    expect(errorOf(() => parseAttributeFilter({ key: { $bad: 'x' } })).code).toBe('unsupported_operator');
  });
});
