import { describe, expect, it } from 'vitest';
import type { WriteBackEntry } from '../../mapping/model/mapping-file.js';
import type { PushState } from '../../write-back/decide/write-back-state.js';
import { ownersHtml, targetOwners } from './ui-product-owners.js';

const entry = (
  attribute: string,
  target: WriteBackEntry['target'],
  merchantEdits: 'keep' | 'overwrite' = 'keep',
) =>
  ({
    path: `writeBack.product.${attribute}`,
    level: 'product',
    attribute,
    target,
    merchantEdits,
    metafieldDefinition: null,
  }) satisfies WriteBackEntry;

const state = (attribute: string, target: string, status: PushState['status']): PushState => ({
  ownerId: 'gid://shopify/Product/1',
  attribute,
  target,
  status,
  valueHash: null,
});

describe('targetOwners', () => {
  const entries = [
    entry('seoTitle', { kind: 'field', field: 'seo.title' }),
    entry('aiTags', { kind: 'tags' }),
    entry('material', {
      kind: 'metafield',
      namespace: '$app:catalog',
      key: 'material',
      type: 'single_line_text_field',
    }),
    entry('seoDescription', { kind: 'field', field: 'seo.description' }, 'overwrite'),
  ];

  it("names the catalog owner of every mapped target, and Shopify where a merchant's edit is kept", () => {
    const owners = targetOwners(entries, [
      state('seoTitle', 'seo.title', 'merchant-owned'),
      state('aiTags', 'tags', 'pushed'),
      state('seoDescription', 'seo.description', 'merchant-owned'),
    ]);
    expect(owners.map((o) => [o.target, o.owner, o.now])).toEqual([
      ['seo.title', 'shopify', "a merchant edited it: Shopify's value is kept"],
      ['tags', 'catalog', "holds the catalog's value"],
      ['metafield:$app:catalog.material', 'catalog', 'nothing written yet'],
      ['seo.description', 'catalog', "a merchant edited it: the catalog's next value overwrites it"],
    ]);
    expect(owners[0]?.rule).toBe(
      "the catalog's seoTitle (approved content) is written to the product's SEO title; a merchant's edit there is kept",
    );
    expect(owners[3]?.rule).toMatch(/is overwritten$/);
  });

  it("says every field is Shopify's without a mapping or write-back entries", () => {
    expect(ownersHtml(null)).toContain("every field is Shopify's");
    expect(ownersHtml([])).toContain('writes nothing back');
    const html = ownersHtml(targetOwners(entries.slice(0, 1), []));
    expect(html).toContain(
      '<strong title="seo.title">SEO title</strong>: owned by the catalog (seoTitle), nothing written yet.',
    );
  });
});
