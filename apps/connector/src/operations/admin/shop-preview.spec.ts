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
    expect(preview.counts).toEqual({ creates: 1, patches: 1, deletes: 1, total: 3 });
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

  it('exports one CSV line per changed field, quoting and defusing cells', () => {
    const csv = previewCsv(
      shopPreview('s.myshopify.com', 'shadow', [
        row({ before: { name: 'a' }, after: { name: '=1+1, "x"' } }),
      ]),
    );
    expect(csv.split('\r\n')).toEqual([
      'productId,supplierSku,calls,field,before,after',
      `1,A,PATCH /v1/products/SK1,name,a,"'=1+1, ""x"""`,
      '',
    ]);
  });
});
