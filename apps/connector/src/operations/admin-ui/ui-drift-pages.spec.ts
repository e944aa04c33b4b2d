import { describe, expect, it } from 'vitest';
import type { DriftFindingRow } from '../../drift/store/drift-finding-row.entity.js';
import type { DriftReport } from '../../drift/store/drift-report.entity.js';
import {
  driftChoiceOf,
  driftRepairConfirmPage,
  driftRepairResultPage,
  driftReportPage,
} from './ui-drift-pages.js';

const report = {
  id: '7',
  shop: 'demo.myshopify.com',
  createdAt: new Date('2026-01-01T00:00:00Z'),
  catalogSearches: 1,
  catalogRecords: 3,
  counts: { orphan: 1 },
  previousId: null,
  resolved: [],
} as unknown as DriftReport;

const orphan = {
  id: '12',
  status: 'new',
  repairedAt: null,
  repairOutcome: null,
  finding: {
    kind: 'orphan',
    key: 'orphan:S-1',
    productId: null,
    skuId: 'S-1',
    supplierSku: 'sku-<1>',
    field: null,
    expected: null,
    found: null,
    repair: 'delete-record',
  },
} as unknown as DriftFindingRow;

describe('driftChoiceOf', () => {
  it("takes a finding's own button over the ticked boxes", () => {
    expect(driftChoiceOf({ one: '5', ids: ['1', '2'] })).toEqual({ ids: ['5'] });
  });
  it('reads ticked boxes (repeated) and the confirm form (comma-separated), dropping non-ids', () => {
    expect(driftChoiceOf({ ids: ['1', '2', '2', 'x'] })).toEqual({ ids: ['1', '2'] });
    expect(driftChoiceOf({ ids: '3,4' })).toEqual({ ids: ['3', '4'] });
  });
  it('reads a known kind, and nothing else', () => {
    expect(driftChoiceOf({ kind: 'orphan' })).toEqual({ kind: 'orphan' });
    expect(driftChoiceOf({ kind: 'everything' })).toBeNull();
    expect(driftChoiceOf({})).toBeNull();
  });
});

describe('drift pages', () => {
  it('group findings by kind, name each repair in words, and label each checkbox', () => {
    const html = driftReportPage(report, [orphan], Date.parse('2026-01-01T00:05:00Z'), 'tok');
    expect(html).toContain('Catalog record nobody links (1)');
    expect(html).toContain('Repair: delete the record from the catalog for good');
    expect(html).toContain('<input type="checkbox" id="f-12" name="ids" value="12"> <label for="f-12">');
    expect(html).toContain('supplierSku sku-&lt;1&gt;');
    expect(html).toContain('href="/admin/ui/drift/7/repair?kind=orphan"');
  });
  it("names a written-back value's target and owner, and the merchant-or-retract repairs in words", () => {
    const written = (kind: string, repair: string, id: string) =>
      ({
        ...orphan,
        id,
        finding: {
          ...orphan.finding,
          kind,
          key: `${kind}:x`,
          productId: '42',
          skuId: 'S-2',
          supplierSku: null,
          field: 'variantTitle',
          expected: null,
          found: 'Mine',
          repair,
          ownerId: 'gid://shopify/ProductVariant/77',
          target: 'metafield:$app:catalog.variant_title',
        },
      }) as unknown as DriftFindingRow;
    const html = driftReportPage(
      report,
      [
        written('written-back-differs', 'accept-merchant', '13'),
        written('no-longer-approved', 'retract', '14'),
      ],
      Date.parse('2026-01-01T00:05:00Z'),
      'tok',
    );
    expect(html).toContain(
      'field variantTitle, written to metafield:$app:catalog.variant_title of variant 77',
    );
    expect(html).toContain('Repair: keep the merchant&#39;s value');
    expect(html).toContain('Repair: take the written-back value out of Shopify');
  });

  it('confirm with a POST carrying the CSRF token and the chosen ids', () => {
    const html = driftRepairConfirmPage(report, { ids: ['12'] }, [orphan], 'tok');
    expect(html).toContain('<form method="post" action="/admin/ui/drift/7/repairs">');
    expect(html).toContain('name="_csrf" value="tok"');
    expect(html).toContain('name="ids" value="12"');
    expect(html).toContain('will delete the record from the catalog');
  });

  it("says before a gone record's repair runs that it comes back under a new skuId, its enrichment lost, Shopify's values kept", () => {
    const gone = {
      ...orphan,
      finding: {
        ...orphan.finding,
        kind: 'record-gone',
        key: 'record-gone:S-1',
        productId: '4',
        repair: 'resync',
      },
    } as unknown as DriftFindingRow;
    const html = driftRepairConfirmPage(report, { ids: ['12'] }, [gone], 'tok');
    expect(html).toMatch(
      /new skuId: the enrichment of S-1 is lost, and values already written back to\s+Shopify from it stay/,
    );
  });

  it('names an orphan to review as never deleted from here', () => {
    const review = {
      ...orphan,
      finding: { ...orphan.finding, repair: 'review' },
    } as unknown as DriftFindingRow;
    expect(driftReportPage(report, [review], Date.parse('2026-01-02T00:00:00Z'), 'tok')).toContain(
      'cannot prove it owns this record',
    );
  });

  it('asks to confirm a delete that loses approved enrichment, listing what is lost, and posts only those records', () => {
    const html = driftRepairResultPage(
      report,
      [
        {
          findingId: '12',
          kind: 'orphan',
          repair: 'delete-record',
          outcome: 'needs-confirmation',
          reason: 'record S-1 holds approved enrichment (aiDescription)',
          loses: ['aiDescription', 'aiTitle'],
          skuId: 'S-1',
        },
        { findingId: '13', kind: 'orphan', repair: 'delete-record', outcome: 'deleted' },
      ],
      'tok',
    );
    expect(html).toContain('record S-1 and its approved aiDescription, aiTitle, lost for good');
    expect(html).toContain('name="ids" value="12"');
    expect(html).toContain('name="confirmLoss" value="S-1"');
    expect(html).toContain('Delete 1 record(s) and lose what is listed');
  });
});
