import { describe, expect, it } from 'vitest';
import type { LinkReportDto } from '../../resync/link-report.dto.js';
import { linkDryRunPage, linkMatchOf } from './ui-link-pages.js';

const report: LinkReportDto = {
  shop: 'demo.myshopify.com',
  dryRun: true,
  match: { shopify: 'sku', catalog: 'supplierSku' },
  catalog: { records: 2, searches: 1 },
  shopifyProducts: 3,
  shopifyRead: 'pages',
  counts: { linked: 1, created: 1, updated: 0, deleted: 0, conflicts: 1 },
  linked: [
    {
      productId: '11',
      records: [{ kind: 'parent', shopifyVariantId: null, skuId: 'S-1', supplierSku: 'A<1>' }],
    },
  ],
  created: ['12'],
  updated: [],
  deleted: [],
  conflicts: [{ productId: '13', reason: 'two records match' }],
  resyncRunId: null,
};

describe('linkMatchOf', () => {
  it("is the admin API's default when absent, a match when known, null otherwise", () => {
    expect(linkMatchOf(undefined)).toBeUndefined();
    expect(linkMatchOf('barcode:gtin')).toEqual({ shopify: 'barcode', catalog: 'gtin' });
    expect(linkMatchOf('title:name')).toBeNull();
  });
});

describe('linkDryRunPage', () => {
  it('says what would be linked, created and left, and confirms the real run with the CSRF token and the same match', () => {
    const html = linkDryRunPage(report, 'tok');
    expect(html).toContain('Would be linked to existing records (1)');
    expect(html).toContain('parent record S-1 (supplierSku A&lt;1&gt;)');
    expect(html).toContain('No record matched: its sync creates them (1)');
    expect(html).toContain('product 13</a>: two records match');
    expect(html).not.toContain('Already linked');
    expect(html).toContain('<form method="post" action="/admin/ui/link/demo.myshopify.com">');
    expect(html).toContain('name="_csrf" value="tok"');
    expect(html).toContain('<input type="hidden" name="match" value="sku:supplierSku">');
  });
});
