import { createHash } from 'node:crypto';
import { beforeEach, describe, expect, it } from 'vitest';
import { CatalogClientError, type UploadImageInput, type UploadResult } from '#lib/catalog-client';
import type { ProductRecord, ProductWriteRequest } from '#lib/catalog-contract';
import { ManualClock } from '#lib/clock';
import { sampleImage } from '#testing/catalog-sandbox';
import { InMemoryGalleryStates, InMemoryImageMap } from '../../../test/support/media-unit.js';
import type { FetchedImage } from '../fetch/safe-image-fetcher.js';
import { MediaError } from '../model/media-error.js';
import type { ProductImages } from '../model/product-images.js';
import type { MediaRecord } from '../plan/desired-galleries.js';
import { type MediaCatalogApi, type MediaSyncInput, syncProductMedia } from './sync-product-media.js';

const SHOP = 'demo.myshopify.com';
const media = (n: number) => `gid://shopify/MediaImage/${n}`;

/** A catalog that records calls and answers like the real one, in memory. */
class FakeCatalog implements MediaCatalogApi {
  calls: string[] = [];
  uploads: UploadImageInput[] = [];
  galleries = new Map<string, string[]>();
  failUpload: CatalogClientError | null = null;
  failPatch: CatalogClientError | null = null;
  private next = 1;

  async uploadImage(input: UploadImageInput): Promise<UploadResult> {
    this.calls.push(`upload ${input.priority}`);
    if (this.failUpload) throw this.failUpload;
    this.uploads.push(input);
    const fileId = `IM${String(this.next++).padStart(8, '0')}`;
    return { fileId, prepares: 1, polls: 2 } as UploadResult;
  }
  async getProduct(skuId: string, call?: { priority?: string }): Promise<ProductRecord> {
    this.calls.push(`get ${skuId} ${call?.priority}`);
    return { attributes: [{ key: 'media', value: this.galleries.get(skuId) ?? null }] } as ProductRecord;
  }
  async getVariant(skuId: string): Promise<ProductRecord> {
    this.calls.push(`getVariant ${skuId}`);
    return { attributes: [{ key: 'media', value: [], inherited: true }] } as unknown as ProductRecord;
  }
  async updateProductBySkuId(skuId: string, body: ProductWriteRequest, call?: { priority?: string }) {
    this.calls.push(`patch ${skuId} ${call?.priority}`);
    if (this.failPatch) throw this.failPatch;
    this.galleries.set(skuId, body.product.attributes[0]?.value as string[]);
  }
  async updateVariant(skuId: string, body: ProductWriteRequest) {
    this.calls.push(`patchVariant ${skuId}`);
    this.galleries.set(skuId, body.product.attributes[0]?.value as string[]);
  }
}

/** Image bytes by URL; a URL mapped to a MediaError fails. */
class FakeImages {
  fetches: string[] = [];
  constructor(readonly bytes: Map<string, Buffer | MediaError>) {}
  async fetch(url: string): Promise<FetchedImage> {
    this.fetches.push(url);
    const found = this.bytes.get(url);
    if (found instanceof MediaError) throw found;
    if (!found) throw new Error(`unexpected fetch of ${url}`);
    const contentHash = createHash('sha256').update(found).digest('hex');
    return {
      url,
      finalUrl: url,
      bytes: found,
      format: 'image/png',
      extension: 'png',
      contentHash,
      size: found.length,
    };
  }
}

const parent: MediaRecord = {
  kind: 'simple',
  shopifyVariantId: null,
  supplierSku: 'MUG',
  skuId: 'SK00000001',
};

describe('syncProductMedia', () => {
  let catalog: FakeCatalog;
  let images: FakeImages;
  let imageMap: InMemoryImageMap;
  let galleries: InMemoryGalleryStates;
  const clock = new ManualClock();
  const png = (seed: number) => Buffer.concat([sampleImage('image/png', 64), Buffer.from([seed])]);
  const url = (n: number) => `https://cdn.shopify.com/s/files/${n}.png?v=1`;

  beforeEach(() => {
    catalog = new FakeCatalog();
    images = new FakeImages(new Map([1, 2, 3, 4].map((n) => [url(n), png(n)])));
    imageMap = new InMemoryImageMap();
    galleries = new InMemoryGalleryStates();
  });

  const product = (order: number[], urls: (n: number) => string = url): ProductImages => ({
    productId: 'gid://shopify/Product/1',
    images: order.map((n) => ({ id: media(n), alt: null, url: urls(n) })),
    variantImages: [],
  });
  const sync = (p: ProductImages, extra: Partial<MediaSyncInput> = {}) =>
    syncProductMedia(
      { catalog, images, imageMap, galleries, clock },
      { shop: SHOP, product: p, records: [parent], ...extra },
    );

  it('uploads each image once at bulk priority, then patches the gallery in order; a re-run does nothing', async () => {
    const first = await sync(product([1, 2, 3]));
    expect(first.uploads).toHaveLength(3);
    expect(
      catalog.uploads.every((u) => u.priority === 'bulk' && u.skuIds === undefined && !u.addToMediaGallery),
    ).toBe(true);
    expect(catalog.galleries.get('SK00000001')).toEqual(['IM00000001', 'IM00000002', 'IM00000003']);
    expect(catalog.calls.filter((c) => !c.startsWith('upload'))).toEqual([
      'get SK00000001 bulk',
      'patch SK00000001 bulk',
    ]);
    expect(first.retryLater).toBe(false);

    catalog.calls = [];
    images.fetches = [];
    const again = await sync(product([1, 2, 3]));
    expect(again).toMatchObject({ fetched: 0, uploads: [], writes: [] });
    expect(images.fetches).toEqual([]);
    expect(catalog.calls).toEqual([]);
  });

  it('a reorder makes zero uploads and one PATCH; a removal only leaves the gallery; an addition one upload', async () => {
    await sync(product([1, 2, 3]));
    catalog.calls = [];
    const reorder = await sync(product([3, 1, 2]));
    expect(reorder.uploads).toEqual([]);
    expect(catalog.calls.filter((c) => c.startsWith('patch'))).toHaveLength(1);
    expect(catalog.galleries.get('SK00000001')).toEqual(['IM00000003', 'IM00000001', 'IM00000002']);

    const removal = await sync(product([3, 2]));
    expect(removal.uploads).toEqual([]);
    expect(catalog.galleries.get('SK00000001')).toEqual(['IM00000003', 'IM00000002']);

    const addition = await sync(product([3, 2, 4]));
    expect(addition.uploads.map((u) => u.mediaIds)).toEqual([[media(4)]]);
    expect(catalog.galleries.get('SK00000001')).toEqual(['IM00000003', 'IM00000002', 'IM00000004']);
  });

  it('uploads the same bytes under two Shopify ids once, and reuses known bytes under a new id or URL', async () => {
    images.bytes.set(url(5), png(1));
    const result = await sync(product([1, 5, 2]));
    expect(result.uploads.map((u) => u.mediaIds)).toEqual([[media(1), media(5)], [media(2)]]);
    expect(catalog.galleries.get('SK00000001')).toEqual(['IM00000001', 'IM00000002']);

    // Shopify hands out a new URL with the same bytes, and another product image has known bytes.
    const moved = (n: number) => `https://cdn.shopify.com/s/files/${n}.png?v=2`;
    images.bytes.set(moved(1), png(1));
    images.bytes.set(moved(6), png(2));
    const next = await sync(product([1, 6], moved));
    expect(next).toMatchObject({ fetched: 2, reused: 2, uploads: [] });
    expect(catalog.galleries.get('SK00000001')).toEqual(['IM00000001', 'IM00000002']);
  });

  it('reports a broken image and still syncs the others; a retryable failure asks for a later run', async () => {
    images.bytes.set(url(2), new MediaError({ code: 'not_an_image', message: 'html' }));
    images.bytes.set(url(3), new MediaError({ code: 'server_error', message: '503' }));
    const result = await sync(product([1, 2, 3]));
    expect(result.imageFailures.map((f) => [f.mediaId, f.stage, f.error.code, f.error.retryable])).toEqual([
      [media(2), 'fetch', 'not_an_image', false],
      [media(3), 'fetch', 'server_error', true],
    ]);
    expect(catalog.galleries.get('SK00000001')).toEqual(['IM00000001']);
    expect(result.retryLater).toBe(true);
  });

  it('keeps the older catalog image of a media id whose new bytes cannot be fetched', async () => {
    await sync(product([1, 2]));
    const changed = (n: number) => `https://cdn.shopify.com/s/files/${n}.png?v=${n === 2 ? 9 : 1}`;
    images.bytes.set(changed(2), new MediaError({ code: 'not_found', message: '404' }));
    const result = await sync(product([1, 2], changed));
    expect(result.imageFailures.map((f) => f.error.code)).toEqual(['not_found']);
    expect(result.writes).toEqual([]);
    expect(catalog.galleries.get('SK00000001')).toEqual(['IM00000001', 'IM00000002']);
  });

  it('turns an upload that never finishes processing into a typed, retryable failure', async () => {
    catalog.failUpload = new CatalogClientError({
      message: 'Upload UP1 still processing after 600000 ms',
      errorCode: null,
      code: 'upload_processing_timeout',
      status: null,
      retryable: true,
      method: 'GET',
      path: '/v1/upload/status',
      details: { uploadId: 'UP00000001', polls: 9 },
    });
    const result = await sync(product([1]));
    expect(result.imageFailures).toEqual([
      expect.objectContaining({
        stage: 'upload',
        error: expect.objectContaining({
          code: 'upload_processing_timeout',
          retryable: true,
          details: expect.objectContaining({ uploadId: 'UP00000001', polls: 9 }),
        }),
      }),
    ]);
    expect(result.writes).toEqual([]);
    expect(result.retryLater).toBe(true);
  });

  it('notes replacing a gallery changed on the catalog side, and records a failed PATCH without saving it', async () => {
    await sync(product([1]));
    catalog.galleries.set('SK00000001', ['IM00000001', 'IM00000777']);
    const replaced = await sync(product([2, 1]));
    expect(replaced.notes).toEqual([
      expect.objectContaining({ code: 'replaced-foreign-gallery', found: ['IM00000001', 'IM00000777'] }),
    ]);
    expect(catalog.galleries.get('SK00000001')).toEqual(['IM00000002', 'IM00000001']);

    catalog.failPatch = new CatalogClientError({
      message: 'timeout',
      errorCode: null,
      code: 'write_outcome_unknown',
      status: null,
      retryable: true,
      method: 'PATCH',
      path: '/v1/products/{skuId}',
    });
    const failed = await sync(product([1, 2]));
    expect(failed.recordFailures.map((f) => [f.skuId, f.error.code, f.error.retryable])).toEqual([
      ['SK00000001', 'catalog_unavailable', true],
    ]);
    expect((await galleries.find(SHOP, ['SK00000001']))[0]?.media).toEqual(['IM00000002', 'IM00000001']);
  });

  it('gives a variant with its own image its own gallery when the setting asks for it', async () => {
    const red: MediaRecord = {
      kind: 'variant',
      shopifyVariantId: '11',
      supplierSku: 'TEE-RED',
      skuId: 'SK00000002',
    };
    const p = {
      ...product([1, 2]),
      variantImages: [{ variantId: 'gid://shopify/ProductVariant/11', mediaIds: [media(2)] }],
    };
    const inherit = await sync(p, { records: [{ ...parent, kind: 'parent' }, red] });
    expect(inherit.writes.map((w) => w.record.supplierSku)).toEqual(['MUG']);
    const own = await sync(p, {
      records: [{ ...parent, kind: 'parent' }, red],
      settings: { variantGalleries: 'own-image' },
    });
    expect(own.writes.map((w) => [w.method, w.media])).toEqual([
      ['updateVariant', ['IM00000002', 'IM00000001']],
    ]);
    expect(own.notes.map((n) => n.code)).toEqual(['variant-inheritance-broken']);
    expect(own.uploads).toEqual([]);
  });

  it('makes no call for records that do not exist yet, and asks for a later run', async () => {
    const result = await sync(product([1]), { records: [{ ...parent, skuId: null }] });
    expect(catalog.calls).toEqual([]);
    expect(images.fetches).toEqual([]);
    expect(result.retryLater).toBe(true);
  });
});
