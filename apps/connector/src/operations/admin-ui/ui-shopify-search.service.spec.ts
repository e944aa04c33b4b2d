import { describe, expect, it } from 'vitest';
import { shopifySearchQuery } from './ui-shopify-search.service.js';

describe('shopifySearchQuery', () => {
  it('searches the named field (title, handle or sku) with a quoted value', () => {
    expect(shopifySearchQuery('sku: SHIRT-S')).toBe('sku:"SHIRT-S"');
    expect(shopifySearchQuery('Handle:linen-shirt')).toBe('handle:"linen-shirt"');
    expect(shopifySearchQuery('title:Linen shirt')).toBe('title:"Linen shirt"');
  });
  it("otherwise is one quoted phrase for Shopify's default search, quotes escaped", () => {
    expect(shopifySearchQuery(' Linen shirt ')).toBe('"Linen shirt"');
    expect(shopifySearchQuery('say "hi" OR vendor:x')).toBe('"say \\"hi\\" OR vendor:x"');
  });
});
