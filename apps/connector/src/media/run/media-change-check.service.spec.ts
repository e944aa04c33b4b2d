import { describe, expect, it } from 'vitest';
import type { CanonicalProduct } from '../../clients/shopify/canonical-product.js';
import type { MediaSettings } from '../../platform/config/settings.js';
import type { PgGalleryStateRepository } from '../store/gallery-state.repository.js';
import type { PgImageMapRepository } from '../store/image-map.repository.js';
import type { MediaStatusRepository } from '../store/media-status.repository.js';
import { MediaChangeCheck } from './media-change-check.service.js';
import type { ProductMediaRunner } from './product-media-runner.service.js';

function check() {
  return new MediaChangeCheck(
    { recordsOf: async () => [] } as unknown as ProductMediaRunner,
    { find: async () => [] } as unknown as PgGalleryStateRepository,
    { findByMediaIds: async () => [] } as unknown as PgImageMapRepository,
    { get: async () => null } as unknown as MediaStatusRepository,
    { variantGalleries: 'none' } as unknown as MediaSettings,
  );
}

const product = (media: CanonicalProduct['media']) =>
  ({ id: 'gid://shopify/Product/7', media }) as unknown as CanonicalProduct;
const synced = (p: CanonicalProduct | null) => ({
  shop: 'demo.myshopify.com',
  productId: '7',
  outcome: 'synced' as const,
  product: p,
  jobId: '1',
});

describe('MediaChangeCheck', () => {
  it('runs nothing for a product read with no image and no media run yet (no second Shopify read)', async () => {
    expect(await check().reasonToRun(synced(product([])))).toBeNull();
  });

  it("runs a product's first media run when the sync read images, and reads them when it did not", async () => {
    const image = { id: 'gid://shopify/MediaImage/1', alt: null, url: 'https://cdn.shopify.com/a.jpg' };
    expect(await check().reasonToRun(synced(product([image] as CanonicalProduct['media'])))).toBe(
      'no media run yet',
    );
    expect(await check().reasonToRun(synced(product(undefined)))).toBe('images not read with the product');
  });
});
