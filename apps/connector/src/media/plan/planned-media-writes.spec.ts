import { describe, expect, it } from 'vitest';
import type { ImageMapRow } from '../model/media-store.js';
import { PLANNED_SKU_ID, plannedMediaWrites } from './planned-media-writes.js';

const SHOP = 'demo.myshopify.com';
const media = (n: number) => `gid://shopify/MediaImage/${n}`;
const url = (n: number) => `https://cdn.shopify.com/s/files/${n}.png?v=1`;
const image = (n: number) => ({ id: media(n), alt: null, url: url(n) });
const product = (ns: number[]) => ({
  productId: 'gid://shopify/Product/1',
  images: ns.map(image),
  variantImages: [],
});
const parent = (skuId: string | null) => ({
  kind: 'simple' as const,
  shopifyVariantId: null,
  supplierSku: 'SKU-1',
  skuId,
});

function row(n: number, fileId: string): ImageMapRow {
  return {
    shop: SHOP,
    shopifyMediaId: media(n),
    sourceUrl: url(n),
    contentHash: `hash-${n}`,
    fileId,
    byteSize: 10,
    format: 'image/png',
  };
}

describe('plannedMediaWrites', () => {
  it('plans an upload per unknown image, then the gallery PATCH, for a record not created yet', () => {
    const writes = plannedMediaWrites({
      product: product([1, 2]),
      records: [parent(null)],
      written: [],
      mapRows: [],
    });
    expect(writes.map((w) => `${w.method} ${w.path}`)).toEqual([
      'POST /v1/upload/prepare',
      'POST /v1/upload/prepare',
      `PATCH /v1/products/${PLANNED_SKU_ID}`,
    ]);
    expect(writes[2]?.before).toEqual({ media: [] });
    expect(writes[2]?.after).toEqual({ media: [`upload:${media(1)}`, `upload:${media(2)}`] });
    expect(writes[2]?.supplierSku).toBe('SKU-1');
  });

  it('uploads nothing the image map knows, and plans no PATCH for an unchanged gallery', () => {
    const writes = plannedMediaWrites({
      product: product([1]),
      records: [parent('PA00000001')],
      written: [{ shop: SHOP, skuId: 'PA00000001', media: ['FI00000001'], writtenAt: 0 }],
      mapRows: [row(1, 'FI00000001')],
    });
    expect(writes).toEqual([]);
  });

  it('plans only the new image and the changed gallery of a live record', () => {
    const writes = plannedMediaWrites({
      product: product([2, 1]),
      records: [parent('PA00000001')],
      written: [{ shop: SHOP, skuId: 'PA00000001', media: ['FI00000001'], writtenAt: 0 }],
      mapRows: [row(1, 'FI00000001')],
    });
    expect(writes.map((w) => `${w.method} ${w.path}`)).toEqual([
      'POST /v1/upload/prepare',
      'PATCH /v1/products/PA00000001',
    ]);
    expect(writes[1]?.before).toEqual({ media: ['FI00000001'] });
    expect(writes[1]?.after).toEqual({ media: [`upload:${media(2)}`, 'FI00000001'] });
  });
});
