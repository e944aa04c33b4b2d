import { describe, expect, it } from 'vitest';
import type { PlannedWriteRow } from '../../product-sync/planned/planned-write.entity.js';
import { previewCsv, shopPreview } from './shop-preview.js';

const at = new Date('2026-11-26T10:00:00Z');
const row = (over: Partial<PlannedWriteRow>): PlannedWriteRow =>
  ({
    id: '1',
    shop: 's.myshopify.com',
    productId: '1',
    source: 'sync',
    seq: 0,
    kind: 'updateProduct',
    method: 'PATCH',
    path: '/v1/products/SK1',
    supplierSku: 'A',
    body: {},
    before: null,
    after: null,
    gaps: [],
    plannedAt: at,
    ...over,
  }) as PlannedWriteRow;

describe('shopPreview', () => {
  it('counts creates, patches and deletes, and gives each record its field diffs and final state', () => {
    const preview = shopPreview('s.myshopify.com', 'shadow', [
      row({ method: 'POST', path: '/v1/products', supplierSku: 'N', after: { name: 'New', tags: ['a'] } }),
      row({ productId: '2', before: { name: 'Old', brand: 'X' }, after: { name: 'Kept', brand: 'X' } }),
      row({ productId: '3', method: 'DELETE', supplierSku: 'D', before: { name: 'Gone' }, after: null }),
    ]);
    expect(preview.counts).toEqual({
      creates: 1,
      patches: 1,
      deletes: 1,
      uploads: 0,
      writeBacks: { total: 0, byTarget: {} },
      conflicts: 0,
      mappingGaps: 0,
      total: 3,
    });
    expect(preview.products.map((p) => p.records[0]?.diffs)).toEqual([
      [
        { field: 'name', before: null, after: 'New' },
        { field: 'tags', before: null, after: ['a'] },
      ],
      [{ field: 'name', before: 'Old', after: 'Kept' }],
      [{ field: 'name', before: 'Gone', after: null }],
    ]);
    expect(preview.products[0]?.records[0]?.finalState).toEqual({ name: 'New', tags: ['a'] });
    expect(preview.products[2]?.records[0]?.finalState).toBeNull();
  });

  it("folds the media step's gallery into the record's planned state; an upload is named by its image and record", () => {
    const media = { source: 'media', kind: 'updateProductBySkuId', path: '/v1/products/{skuId}' };
    const preview = shopPreview('s.myshopify.com', 'shadow', [
      row({
        ...media,
        kind: 'uploadImage',
        method: 'POST',
        path: '/v1/upload/prepare',
        supplierSku: null,
        body: { shopifyMediaId: 'm1', sourceUrl: 'https://img/front.jpg' },
        before: null,
        after: { shopifyMediaId: 'm1', fileId: 'upload:m1' },
      }),
      row({ ...media, seq: 1, before: { media: [] }, after: { media: ['upload:m1'] } }),
      row({ method: 'POST', path: '/v1/products', after: { name: 'New' } }),
      row({
        productId: '2',
        ...media,
        path: '/v1/products/SK2',
        before: { media: ['F1'] },
        after: { media: [] },
      }),
    ]);
    // In the order live sends them: the sync's create, the media's uploads, its gallery.
    const [record, uploads] = preview.products[0]?.records ?? [];
    const entry = { shopifyMediaId: 'm1', fileId: 'upload:m1', sourceUrl: 'https://img/front.jpg' };
    expect(uploads).toEqual({
      kind: 'upload',
      source: 'catalog',
      supplierSku: 'A',
      image: { shopifyMediaId: 'm1', sourceUrl: 'https://img/front.jpg' },
      calls: ['POST /v1/upload/prepare'],
      diffs: [
        { field: 'fileId', before: null, after: 'upload:m1' },
        { field: 'shopifyMediaId', before: null, after: 'm1' },
        { field: 'sourceUrl', before: null, after: 'https://img/front.jpg' },
      ],
      finalState: entry,
    });
    expect(record?.kind).toBe('record');
    // In the CSV, the upload's lines name the record it is for and the image's URL.
    expect(previewCsv(preview).split('\r\n')).toContain(
      '1,catalog,A,POST /v1/upload/prepare,sourceUrl,,https://img/front.jpg',
    );
    expect(record?.calls).toEqual(['POST /v1/products', 'PATCH /v1/products/{skuId}']);
    expect(record?.finalState).toEqual({ name: 'New', media: ['upload:m1'] });
    expect(record?.diffs).toContainEqual({ field: 'media', before: null, after: ['upload:m1'] });
    expect(preview.products[1]?.records[0]?.diffs).toEqual([{ field: 'media', before: ['F1'], after: [] }]);
  });

  it('exports one CSV line per changed field, quoting and defusing cells', () => {
    const csv = previewCsv(
      shopPreview('s.myshopify.com', 'shadow', [
        row({ before: { name: 'a' }, after: { name: '=1+1, "x"' } }),
      ]),
    );
    expect(csv.split('\r\n')).toEqual([
      'productId,source,supplierSku,calls,field,before,after',
      `1,catalog,A,PATCH /v1/products/SK1,name,a,"'=1+1, ""x"""`,
      '',
    ]);
  });
  it('counts uploads, write-backs by target, conflicts and mapping gaps', () => {
    const gap = (attribute: string) => ({
      attribute,
      entry: `variant.options.${attribute}`,
      message: 'unknown',
    });
    const wb = (over: Partial<PlannedWriteRow>) =>
      row({ source: 'write-back', supplierSku: null, method: 'MUTATION', ...over });
    const counts = shopPreview('s.myshopify.com', 'shadow', [
      row({ method: 'POST', supplierSku: 'P', gaps: [gap('color')] }),
      // The record's latest planned write counts its gaps, once.
      row({ method: 'POST', supplierSku: 'V', gaps: [gap('size')] }),
      row({ method: 'PATCH', supplierSku: 'V', gaps: [gap('size'), gap('color')] }),
      row({ source: 'media', method: 'POST', kind: 'uploadImage', supplierSku: 'P' }),
      row({ source: 'media', method: 'POST', kind: 'uploadImage', supplierSku: 'P' }),
      wb({ kind: 'productUpdate', path: 'WriteBackProductUpdate', after: { 'seo.title': 'T', title: 'N' } }),
      wb({
        kind: 'metafieldsSet',
        path: 'WriteBackMetafieldsSet',
        after: { 'metafield:$app:catalog.material': 'wool', 'metafield:$app:catalog.material@22': 'silk' },
      }),
      wb({ kind: 'conflict', method: 'HELD', path: 'seo.description', body: { detail: 'edited' } }),
    ]).counts;
    expect(counts).toEqual({
      creates: 2,
      patches: 1,
      deletes: 0,
      uploads: 2,
      writeBacks: { total: 4, byTarget: { 'seo.title': 1, title: 1, '$app:catalog.material': 2 } },
      conflicts: 1,
      mappingGaps: 3,
      total: 8,
    });
  });

  it("merges a product's write-back mutations into one shopify record: first before, last after", () => {
    const wb = (over: Partial<PlannedWriteRow>) =>
      row({ source: 'write-back', supplierSku: null, method: 'MUTATION', ...over });
    const preview = shopPreview('s.myshopify.com', 'shadow', [
      row({ method: 'PATCH', supplierSku: 'A', before: { name: 'a' }, after: { name: 'b' } }),
      wb({ seq: 0, path: 'WriteBackProductUpdate', before: { title: 'Old' }, after: { title: 'New' } }),
      wb({ seq: 1, path: 'WriteBackTagsAdd', before: { tags: ['x'] }, after: { tags: ['x', 'y'] } }),
    ]);
    expect(preview.products[0]?.records).toEqual([
      {
        kind: 'record',
        source: 'catalog',
        supplierSku: 'A',
        calls: ['PATCH /v1/products/SK1'],
        diffs: [{ field: 'name', before: 'a', after: 'b' }],
        finalState: { name: 'b' },
      },
      {
        kind: 'record',
        source: 'shopify',
        supplierSku: '',
        calls: ['MUTATION WriteBackProductUpdate', 'MUTATION WriteBackTagsAdd'],
        diffs: [
          { field: 'tags', before: ['x'], after: ['x', 'y'] },
          { field: 'title', before: 'Old', after: 'New' },
        ],
        finalState: { title: 'New', tags: ['x', 'y'] },
      },
    ]);
  });
});
