import { describe, expect, it } from 'vitest';
import type { ImageMapRow } from '../model/media-store.js';
import type { MediaRecord } from '../plan/desired-galleries.js';
import { type MediaChangeInput, mediaRunNeeded } from './media-change.js';

const SHOP = 'demo.myshopify.com';
const image = (n: number, url = `https://cdn.example/${n}.jpg`) => ({
  id: `gid://shopify/MediaImage/${n}`,
  alt: null,
  url,
});
const mapped = (n: number, url = `https://cdn.example/${n}.jpg`): ImageMapRow => ({
  shop: SHOP,
  shopifyMediaId: `gid://shopify/MediaImage/${n}`,
  sourceUrl: url,
  contentHash: String(n).padStart(64, '0'),
  fileId: `IM0000000${n}`,
  byteSize: 10,
  format: 'image/jpeg',
});
const parent: MediaRecord = { kind: 'simple', shopifyVariantId: null, supplierSku: 'MUG-1', skuId: 'SK1' };

/** A product of two images the last run mapped and wrote, in this order. */
function synced(overrides: Partial<MediaChangeInput> = {}): MediaChangeInput {
  return {
    productGid: 'gid://shopify/Product/7',
    images: [image(1), image(2)],
    records: [parent],
    written: [{ shop: SHOP, skuId: 'SK1', media: ['IM00000001', 'IM00000002'], writtenAt: 1 }],
    known: [mapped(1), mapped(2)],
    lastRun: { imageFailures: [], notes: [] },
    settings: { variantGalleries: 'inherit' },
    ...overrides,
  };
}

describe('mediaRunNeeded', () => {
  it('needs no run when the images, their URLs and their order are what the last run wrote', () => {
    expect(mediaRunNeeded(synced())).toBeNull();
  });

  it('needs a run for a reorder, a new image, a changed URL, or an image still processing', () => {
    expect(mediaRunNeeded(synced({ images: [image(2), image(1)] }))).toBe('a gallery changed');
    expect(mediaRunNeeded(synced({ images: [image(1), image(2), image(3)] }))).toContain('new or changed');
    expect(
      mediaRunNeeded(synced({ images: [image(1), image(2, 'https://cdn.example/2-v2.jpg')] })),
    ).toContain('new or changed');
    expect(mediaRunNeeded(synced({ images: [image(1), { ...image(2), url: null }] }))).toContain(
      'processing',
    );
    expect(mediaRunNeeded(synced({ images: [image(1)] }))).toBe('a gallery changed');
  });

  it('needs a run when in doubt: images not read, no run yet, failures to retry, records missing', () => {
    expect(mediaRunNeeded(synced({ images: undefined }))).not.toBeNull();
    expect(mediaRunNeeded(synced({ lastRun: null }))).toBe('no media run yet');
    expect(
      mediaRunNeeded(
        synced({
          lastRun: {
            imageFailures: [
              { mediaId: image(2).id, stage: 'fetch', code: 'x', message: 'x', retryable: false },
            ],
            notes: [],
          },
        }),
      ),
    ).not.toBeNull();
    expect(mediaRunNeeded(synced({ records: [{ ...parent, skuId: null }] }))).not.toBeNull();
    expect(mediaRunNeeded(synced({ written: [] }))).toBe('a gallery changed');
  });

  it("needs a run when variants may get their own gallery (their images are not in the sync's read)", () => {
    const variant: MediaRecord = {
      kind: 'variant',
      shopifyVariantId: '71',
      supplierSku: 'MUG-1-S',
      skuId: 'SK2',
    };
    const parentRecord: MediaRecord = { ...parent, kind: 'parent' };
    const input = synced({ records: [parentRecord, variant] });
    expect(mediaRunNeeded(input)).toBeNull();
    expect(mediaRunNeeded({ ...input, settings: { variantGalleries: 'own-image' } })).not.toBeNull();
  });
});
