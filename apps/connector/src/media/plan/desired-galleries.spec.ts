import { describe, expect, it } from 'vitest';
import type { ProductImages } from '../model/product-images.js';
import { desiredGalleries, type MediaRecord, neededMediaIds } from './desired-galleries.js';

const SHOP = 'demo.myshopify.com';
const media = (n: number) => `gid://shopify/MediaImage/${n}`;
const image = (n: number) => ({
  id: media(n),
  alt: null,
  url: `https://cdn.shopify.com/s/files/${n}.png?v=1`,
});

function product(count: number, variantImages: ProductImages['variantImages'] = []): ProductImages {
  return {
    productId: 'gid://shopify/Product/1',
    images: Array.from({ length: count }, (_, i) => image(i + 1)),
    variantImages,
  };
}

const parent: MediaRecord = {
  kind: 'parent',
  shopifyVariantId: null,
  supplierSku: 'TEE',
  skuId: 'SK00000001',
};
const red: MediaRecord = {
  kind: 'variant',
  shopifyVariantId: '11',
  supplierSku: 'TEE-RED',
  skuId: 'SK00000002',
};
const blue: MediaRecord = {
  kind: 'variant',
  shopifyVariantId: 'gid://shopify/ProductVariant/12',
  supplierSku: 'TEE-BLUE',
  skuId: 'SK00000003',
};
const withOwnImages = product(4, [
  { variantId: 'gid://shopify/ProductVariant/11', mediaIds: [media(3)] },
  { variantId: 'gid://shopify/ProductVariant/12', mediaIds: [media(4)] },
]);

describe('desiredGalleries', () => {
  it("gives the product's own record every image in Shopify's order; variants inherit by default", () => {
    const { galleries, notes } = desiredGalleries({
      product: withOwnImages,
      records: [parent, red, blue],
      written: [],
    });
    expect(galleries).toEqual([
      { record: parent, mediaIds: [media(1), media(2), media(3), media(4)], source: 'product' },
    ]);
    expect(notes).toEqual([]);
  });

  it('with own-image galleries: a variant gets its own image first, then the images no variant claims', () => {
    const { galleries, notes } = desiredGalleries({
      product: withOwnImages,
      records: [parent, red, blue],
      written: [],
      settings: { variantGalleries: 'own-image' },
    });
    expect(galleries.map((g) => [g.record.supplierSku, g.mediaIds, g.source])).toEqual([
      ['TEE', [media(1), media(2), media(3), media(4)], 'product'],
      ['TEE-RED', [media(3), media(1), media(2)], 'variant-own'],
      ['TEE-BLUE', [media(4), media(1), media(2)], 'variant-own'],
    ]);
    expect(notes.map((n) => [n.code, n.supplierSku])).toEqual([
      ['variant-inheritance-broken', 'TEE-RED'],
      ['variant-inheritance-broken', 'TEE-BLUE'],
    ]);
  });

  it('a variant without an image of its own inherits, even with own-image galleries', () => {
    const { galleries } = desiredGalleries({
      product: product(2, [{ variantId: '11', mediaIds: [media(2)] }]),
      records: [parent, red, blue],
      written: [],
      settings: { variantGalleries: 'own-image' },
    });
    expect(galleries.map((g) => g.record.supplierSku)).toEqual(['TEE', 'TEE-RED']);
  });

  it("a variant that had its own gallery gets the parent's images again, with a note (only the portal restores inheritance)", () => {
    const { galleries, notes } = desiredGalleries({
      product: product(2),
      records: [parent, red],
      written: [{ shop: SHOP, skuId: 'SK00000002', media: ['IM00000003'], writtenAt: 0 }],
    });
    expect(galleries[1]).toEqual({ record: red, mediaIds: [media(1), media(2)], source: 'variant-restore' });
    expect(notes).toEqual([
      expect.objectContaining({ code: 'variant-inheritance-not-restorable', skuId: 'SK00000002' }),
    ]);
  });

  it('keeps the first 100 images and says so', () => {
    const { galleries, notes } = desiredGalleries({ product: product(130), records: [parent], written: [] });
    expect(galleries[0]?.mediaIds).toHaveLength(100);
    expect(galleries[0]?.mediaIds.at(-1)).toBe(media(100));
    expect(notes).toEqual([expect.objectContaining({ code: 'gallery-truncated', supplierSku: 'TEE' })]);
    expect(neededMediaIds(galleries).has(media(101))).toBe(false);
  });

  it('waits for records the attribute sync has not created yet', () => {
    const { galleries, notes } = desiredGalleries({
      product: product(1),
      records: [{ ...parent, skuId: null }],
      written: [],
    });
    expect(galleries).toEqual([]);
    expect(notes).toEqual([expect.objectContaining({ code: 'record-not-created', supplierSku: 'TEE' })]);
  });

  it('gives a product without images an empty gallery', () => {
    const { galleries } = desiredGalleries({ product: product(0), records: [parent], written: [] });
    expect(galleries).toEqual([{ record: parent, mediaIds: [], source: 'product' }]);
  });
});
