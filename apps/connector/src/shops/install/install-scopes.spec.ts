import { describe, expect, it } from 'vitest';
import { missingScopes, REQUIRED_SCOPES } from './install-scopes.js';

describe('missingScopes', () => {
  it('finds the needed scopes a grant lacks, a write scope covering its read one', () => {
    expect(missingScopes(REQUIRED_SCOPES, 'read_products,write_products,read_inventory')).toEqual([]);
    expect(missingScopes(REQUIRED_SCOPES, 'write_products,write_inventory')).toEqual([]);
    expect(missingScopes(REQUIRED_SCOPES, 'write_products')).toEqual(['read_inventory']);
    expect(missingScopes(REQUIRED_SCOPES, 'read_products')).toEqual(['write_products', 'read_inventory']);
    expect(missingScopes(REQUIRED_SCOPES, null)).toEqual([
      'read_products',
      'write_products',
      'read_inventory',
    ]);
  });
});
