import { describe, expect, it } from 'vitest';
import type { AttributeEntry, ProductRecord } from '#lib/catalog-contract';
import { type DriftInput, type DriftMapRow, findDrift } from './find-drift.js';

const T = Date.parse('2026-11-01T00:00:00Z');

function record(skuId: string, supplierSku: string, attributes: AttributeEntry[] = []): ProductRecord {
  return {
    id: `id-${skuId}`,
    skuId,
    supplierSku,
    parentSkuId: null,
    createdAt: T,
    updatedAt: T,
    attributeSummary: { enrichableTotal: 0, enrichableCompleted: 0, enrichableCompletionRate: 0 },
    attributes,
  };
}

function row(
  productId: string,
  skuId: string | null,
  snapshot: Record<string, string | string[]> = {},
): DriftMapRow {
  return {
    productId,
    variantId: null,
    kind: 'simple',
    supplierSku: `acme:product:${productId}`,
    skuId,
    state: skuId === null ? 'pending-create' : 'live',
    snapshot,
    shopifyUpdatedAt: T,
  };
}

function input(over: Partial<DriftInput>): DriftInput {
  const rows = over.rows ?? [];
  return {
    rows,
    claimed: over.claimed ?? {
      skuIds: new Set(rows.flatMap((r) => (r.skuId ? [r.skuId] : []))),
      supplierSkus: new Set(rows.map((r) => r.supplierSku)),
    },
    catalog: over.catalog ?? [],
    shopify: over.shopify ?? new Map(rows.map((r) => [r.productId, T])),
    writtenBack: over.writtenBack ?? [],
    prefix: 'acme',
    sharedPrefix: over.sharedPrefix ?? false,
  };
}

describe('findDrift', () => {
  it('finds nothing when the three sides agree', () => {
    const rows = [row('1', 'S1', { name: 'Mug', tags: ['a', 'b'] })];
    const catalog = [
      record('S1', 'acme:product:1', [
        { key: 'name', value: 'Mug' },
        { key: 'tags', value: ['a', 'b'] },
        { key: 'description', value: 'enriched', blame: 'ENRICHMENT_APPROVED' },
      ]),
    ];
    expect(findDrift(input({ rows, catalog }))).toEqual([]);
  });

  it('reports a mapped value a person changed or cleared in the catalog, not one enrichment wrote', () => {
    const rows = [row('1', 'S1', { name: 'Mug', color: 'red', material: 'clay' })];
    const catalog = [
      record('S1', 'acme:product:1', [
        { key: 'name', value: 'Big mug' },
        { key: 'material', value: 'stone', blame: 'ENRICHMENT' },
      ]),
    ];
    const found = findDrift(input({ rows, catalog }));
    expect(found.map((f) => [f.kind, f.field, f.expected, f.found, f.repair])).toEqual([
      ['catalog-changed', 'name', 'Mug', 'Big mug', 'resync'],
      ['catalog-changed', 'color', 'red', null, 'resync'],
    ]);
  });

  it('reports a product changed or deleted in Shopify after its last sync, once per product', () => {
    const rows = [
      row('1', 'S1'),
      { ...row('1', 'S1v'), variantId: '11', kind: 'variant' as const },
      row('2', 'S2'),
    ];
    const catalog = [
      record('S1', 'acme:product:1'),
      record('S1v', 'acme:variant:11'),
      record('S2', 'acme:product:2'),
    ];
    const found = findDrift(input({ rows, catalog, shopify: new Map([['1', T + 1000]]) }));
    expect(found.map((f) => [f.kind, f.productId, f.found, f.repair])).toEqual([
      ['missed-webhook', '1', new Date(T + 1000).toISOString(), 'resync'],
      ['missed-webhook', '2', null, 'resync'],
    ]);
  });

  it("takes a product's latest applied update: a sync that left its variant rows alone is no missed webhook", () => {
    const parent = { ...row('1', 'S1'), kind: 'parent' as const, shopifyUpdatedAt: T + 1000 };
    const variant = { ...row('1', 'S1v'), variantId: '11', kind: 'variant' as const, shopifyUpdatedAt: T };
    const catalog = [record('S1', 'acme:product:1'), record('S1v', 'acme:variant:11')];
    const at = (updatedAt: number) =>
      findDrift(input({ rows: [variant, parent], catalog, shopify: new Map([['1', updatedAt]]) }));
    expect(at(T + 1000)).toEqual([]);
    expect(at(T + 2000).map((f) => [f.kind, f.expected, f.found])).toEqual([
      ['missed-webhook', new Date(T + 1000).toISOString(), new Date(T + 2000).toISOString()],
    ]);
  });

  it('reports a live row whose record is gone from the catalog, not a pending create', () => {
    const rows = [row('1', 'S1'), row('2', null)];
    const found = findDrift(input({ rows, catalog: [] }));
    expect(found.map((f) => [f.kind, f.skuId, f.repair])).toEqual([['record-gone', 'S1', 'resync']]);
  });

  it("reports orphans: adoptable when they name a product of the shop, to delete only when provably the connector's leftover, else to review; not records other shops or pending creates claim", () => {
    const rows = [row('1', 'S1'), row('2', null)];
    const catalog = [
      record('S1', 'acme:product:1'),
      record('S2', 'acme:product:2'), // the pending create's record: the next sync links it
      record('S3', 'acme:product:3'), // Shopify has product 3, no row claims the record
      record('S4', 'MUG-RED'), // a variant-sku record nobody claims: maybe someone's live record
      record('S5', 'other:product:9'), // another shop's, claimed there
      record('S6', 'acme:product:6'), // the shop's derived record of a product Shopify no longer has
    ];
    const claimed = { skuIds: new Set(['S1', 'S5']), supplierSkus: new Set(['acme:product:2']) };
    const shopify = new Map([
      ['1', T],
      ['2', T],
      ['3', T],
    ]);
    const found = findDrift(input({ rows, catalog, claimed, shopify }));
    expect(found.map((f) => [f.kind, f.skuId, f.productId, f.repair])).toEqual([
      ['orphan', 'S3', '3', 'adopt'],
      ['orphan', 'S4', null, 'review'],
      ['orphan', 'S6', null, 'delete-record'],
    ]);
  });

  it('never proposes deleting a record another shop may own: a shared prefix, or a variant under a claimed parent', () => {
    const catalog = [record('S6', 'acme:product:6')];
    // Another served shop derives its supplierSkus under the same prefix: its product 6 maybe.
    expect(findDrift(input({ catalog, sharedPrefix: true })).map((f) => f.repair)).toEqual(['review']);
    // A variant a sync added to a mapped product after the claims were read: its parent is claimed.
    const rows = [{ ...row('1', 'P1'), kind: 'parent' as const }];
    const added = { ...record('V9', 'acme:variant:9'), parentSkuId: 'P1' };
    const found = findDrift(input({ rows, catalog: [record('P1', 'acme:product:1'), added] }));
    expect(found.map((f) => [f.kind, f.skuId, f.repair])).toEqual([['orphan', 'V9', 'review']]);
    // A derived record of a gone product whose variants are not all the connector's: looked at.
    const mixed = [record('P7', 'acme:product:7'), { ...record('V7', 'MUG-7'), parentSkuId: 'P7' }];
    expect(findDrift(input({ catalog: mixed })).map((f) => [f.skuId, f.repair])).toEqual([
      ['P7', 'review'],
      ['V7', 'review'],
    ]);
  });

  it('adopts an orphan product with options whole: its derived variant records go with it', () => {
    const variant = (skuId: string, supplierSku: string, parentSkuId: string) => ({
      ...record(skuId, supplierSku),
      parentSkuId,
    });
    const catalog = [
      record('P3', 'acme:product:3'),
      variant('V1', 'acme:variant:31', 'P3'),
      variant('V2', 'MUG-RED-S', 'P3'), // a variant-sku record: nothing says which variant it is
      record('P4', 'acme:product:4'), // Shopify has no product 4
      variant('V3', 'acme:variant:41', 'P4'),
    ];
    const found = findDrift(input({ rows: [], catalog, shopify: new Map([['3', T]]) }));
    expect(found.map((f) => [f.skuId, f.productId, f.repair])).toEqual([
      ['P3', '3', 'adopt'],
      ['V1', '3', 'adopt'],
      ['V2', null, 'review'],
      ['P4', null, 'delete-record'],
      ['V3', null, 'delete-record'],
    ]);
  });

  it('reports a second record with a claimed supplierSku as a duplicate to delete, not an orphan', () => {
    const rows = [row('1', 'S1')];
    const catalog = [record('S1', 'acme:product:1'), record('S1b', 'acme:product:1')];
    const found = findDrift(input({ rows, catalog }));
    expect(found.map((f) => [f.kind, f.skuId, f.supplierSku, f.repair])).toEqual([
      ['duplicate', 'S1b', 'acme:product:1', 'delete-record'],
    ]);
  });

  it('names the parent of a variant orphan or duplicate, so its delete is the variant one', () => {
    const rows = [row('1', 'S1')];
    const variant = (skuId: string, supplierSku: string) => ({
      ...record(skuId, supplierSku),
      parentSkuId: 'P9',
    });
    const catalog = [
      record('S1', 'acme:product:1'),
      variant('V1', 'other:variant:7'),
      variant('V2', 'acme:product:1'),
    ];
    const found = findDrift(input({ rows, catalog }));
    expect(found.map((f) => [f.kind, f.skuId, f.parentSkuId, f.repair])).toEqual([
      ['orphan', 'V1', 'P9', 'review'],
      ['duplicate', 'V2', 'P9', 'delete-record'],
    ]);
    expect(
      findDrift(input({ rows, catalog: [record('S1', 'acme:product:1'), record('S2', 'x')] }))[0],
    ).not.toHaveProperty('parentSkuId');
  });

  it('reports written-back values a merchant edited (to accept) or the catalog no longer approves (to retract)', () => {
    const rows = [row('1', 'S1')];
    const catalog = [record('S1', 'acme:product:1')];
    const owner = 'gid://shopify/Product/1';
    const writtenBack = [
      {
        productId: '1',
        ownerId: owner,
        skuId: 'S1',
        attribute: 'aiDescription',
        target: 'descriptionHtml',
        disagreement: 'differs' as const,
        expected: 'AI',
        found: 'Mine',
      },
      {
        productId: '1',
        ownerId: owner,
        skuId: 'S1',
        attribute: 'seoTitle',
        target: 'seo.title',
        disagreement: 'withdrawn' as const,
        expected: null,
        found: 'AI title',
      },
    ];
    const found = findDrift(input({ rows, catalog, writtenBack }));
    expect(found.map((f) => [f.kind, f.key, f.field, f.target, f.expected, f.found, f.repair])).toEqual([
      [
        'written-back-differs',
        `written-back-differs:${owner}:aiDescription:descriptionHtml`,
        'aiDescription',
        'descriptionHtml',
        'AI',
        'Mine',
        'accept-merchant',
      ],
      [
        'no-longer-approved',
        `no-longer-approved:${owner}:seoTitle:seo.title`,
        'seoTitle',
        'seo.title',
        null,
        'AI title',
        'retract',
      ],
    ]);
    expect(found.every((f) => f.productId === '1' && f.ownerId === owner)).toBe(true);
  });

  it('gives the same disagreement the same key in the next report', () => {
    const rows = [row('1', 'S1', { name: 'Mug' })];
    const catalog = [record('S1', 'acme:product:1', [{ key: 'name', value: 'X' }])];
    const first = findDrift(input({ rows, catalog })).map((f) => f.key);
    const second = findDrift(input({ rows, catalog })).map((f) => f.key);
    expect(first).toEqual(['catalog-changed:S1:name']);
    expect(second).toEqual(first);
  });
});
