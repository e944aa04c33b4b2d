import { describe, expect, it } from 'vitest';
import type { GalleryState } from '../model/media-store.js';
import type { DesiredGallery, MediaRecord } from './desired-galleries.js';
import { planGalleryWrites } from './plan-gallery-writes.js';

const SHOP = 'demo.myshopify.com';
const media = (n: number) => `gid://shopify/MediaImage/${n}`;
const parent: MediaRecord & { skuId: string } = {
  kind: 'parent',
  shopifyVariantId: null,
  supplierSku: 'TEE',
  skuId: 'SK00000001',
};
const red: MediaRecord & { skuId: string } = {
  kind: 'variant',
  shopifyVariantId: '11',
  supplierSku: 'TEE-RED',
  skuId: 'SK00000002',
};
const fileIds = new Map([1, 2, 3].map((n) => [media(n), `IM0000000${n}`]));
const gallery = (
  ids: number[],
  record = parent,
  source: DesiredGallery['source'] = 'product',
): DesiredGallery => ({
  record,
  mediaIds: ids.map(media),
  source,
});
const state = (mediaList: string[], skuId = parent.skuId): GalleryState => ({
  shop: SHOP,
  skuId,
  media: mediaList,
  writtenAt: 0,
});

describe('planGalleryWrites', () => {
  it("writes a new gallery whole, in Shopify's order, to the product by skuId", () => {
    const plan = planGalleryWrites({ galleries: [gallery([2, 1, 3])], fileIds, written: [] });
    expect(plan.writes).toEqual([
      {
        record: parent,
        media: ['IM00000002', 'IM00000001', 'IM00000003'],
        method: 'updateProductBySkuId',
        body: {
          product: {
            supplierSku: 'TEE',
            attributes: [{ key: 'media', value: ['IM00000002', 'IM00000001', 'IM00000003'] }],
          },
        },
        source: 'product',
      },
    ]);
  });

  it('writes nothing when the gallery is what the connector wrote last; a reorder is one write', () => {
    const written = [state(['IM00000001', 'IM00000002'])];
    expect(planGalleryWrites({ galleries: [gallery([1, 2])], fileIds, written }).writes).toEqual([]);
    const reorder = planGalleryWrites({ galleries: [gallery([2, 1])], fileIds, written });
    expect(reorder.writes.map((w) => w.media)).toEqual([['IM00000002', 'IM00000001']]);
  });

  it('leaves out images without a fileId, and a fileId shared by two images appears once', () => {
    const shared = new Map([...fileIds, [media(4), 'IM00000001']]);
    const plan = planGalleryWrites({ galleries: [gallery([1, 5, 4, 2])], fileIds: shared, written: [] });
    expect(plan.writes[0]?.media).toEqual(['IM00000001', 'IM00000002']);
  });

  it('writes an empty gallery when every image left Shopify, and nothing for a product that never had one', () => {
    const removed = planGalleryWrites({
      galleries: [gallery([])],
      fileIds,
      written: [state(['IM00000001'])],
    });
    expect(removed.writes.map((w) => w.media)).toEqual([[]]);
    expect(planGalleryWrites({ galleries: [gallery([])], fileIds, written: [] }).writes).toEqual([]);
  });

  it('notes a catalog gallery the connector did not write last, and replaces it', () => {
    const plan = planGalleryWrites({
      galleries: [gallery([1, 2])],
      fileIds,
      written: [state(['IM00000001'])],
      current: new Map([[parent.skuId, { media: ['IM00000001', 'IM00000099'], inherited: false }]]),
    });
    expect(plan.writes).toHaveLength(1);
    expect(plan.notes).toEqual([
      expect.objectContaining({
        code: 'replaced-foreign-gallery',
        skuId: parent.skuId,
        lastWritten: ['IM00000001'],
        found: ['IM00000001', 'IM00000099'],
      }),
    ]);
  });

  it('notes a gallery filled on the catalog side before the connector ever wrote one', () => {
    const plan = planGalleryWrites({
      galleries: [gallery([1])],
      fileIds,
      written: [],
      current: new Map([[parent.skuId, { media: ['IM00000099'], inherited: false }]]),
    });
    expect(plan.notes.map((n) => [n.code, n.lastWritten])).toEqual([['replaced-foreign-gallery', null]]);
  });

  it('skips the write when the catalog already holds the gallery, and asks to save the state', () => {
    const plan = planGalleryWrites({
      galleries: [gallery([1, 2])],
      fileIds,
      written: [state(['IM00000001'])],
      current: new Map([[parent.skuId, { media: ['IM00000001', 'IM00000002'], inherited: false }]]),
    });
    expect(plan.writes).toEqual([]);
    expect(plan.inSync).toEqual([{ record: parent, media: ['IM00000001', 'IM00000002'] }]);
    expect(plan.notes).toEqual([]);
  });

  it("patches a variant's own gallery with updateVariant, breaking inheritance; leaves a variant that inherits again alone", () => {
    const own = planGalleryWrites({
      galleries: [gallery([3, 1], red, 'variant-own')],
      fileIds,
      written: [],
      current: new Map([[red.skuId, { media: ['IM00000001'], inherited: true }]]),
    });
    expect(own.writes.map((w) => [w.method, w.media])).toEqual([
      ['updateVariant', ['IM00000003', 'IM00000001']],
    ]);
    expect(own.notes).toEqual([]);
    const restored = planGalleryWrites({
      galleries: [gallery([1], red, 'variant-restore')],
      fileIds,
      written: [state(['IM00000003'], red.skuId)],
      current: new Map([[red.skuId, { media: ['IM00000001'], inherited: true }]]),
    });
    expect(restored.writes).toEqual([]);
  });
});
