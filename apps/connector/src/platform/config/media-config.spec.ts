import { describe, expect, it } from 'vitest';
import { syncMediaJobOptions } from '../queues/job-options.js';
import { loadConnectorConfig } from './connector.config.js';
import { MEDIA_UPLOAD_OPTIONS } from './media-uploads.js';

const base = {
  CONNECTOR_SHOPS: 'demo.myshopify.com',
  CONNECTOR_SHOP_DEMO_ACCESS_TOKEN: 't',
  CONNECTOR_WEBHOOK_SECRETS: 's',
  CONNECTOR_CATALOG_URL: 'http://catalog',
  CONNECTOR_CATALOG_API_KEY: 'k',
};

describe('the media configuration', () => {
  it('is on by default, with the Shopify CDN allowlist, inherited variant galleries and late polls', () => {
    const { media } = loadConnectorConfig(base);
    expect(media).toMatchObject({ enabled: true, allowedHosts: null, variantGalleries: 'inherit' });
    expect(media.uploads).toEqual(MEDIA_UPLOAD_OPTIONS);
    expect(media.uploads.firstPollDelayMs).toBe(40_000);
  });

  it('reads the allowlist, the variant setting, the switch and the poll timings', () => {
    const { media } = loadConnectorConfig({
      ...base,
      CONNECTOR_MEDIA_ENABLED: 'false',
      CONNECTOR_MEDIA_ALLOWED_HOSTS: ' cdn.shopify.com, http://127.0.0.1:4020 ,',
      CONNECTOR_MEDIA_VARIANT_GALLERIES: 'own-image',
      CONNECTOR_MEDIA_FIRST_POLL_MS: '250',
      CONNECTOR_MEDIA_POLL_MS: '100',
    });
    expect(media).toMatchObject({
      enabled: false,
      allowedHosts: ['cdn.shopify.com', 'http://127.0.0.1:4020'],
      variantGalleries: 'own-image',
      uploads: { ...MEDIA_UPLOAD_OPTIONS, firstPollDelayMs: 250, pollDelayMs: 100 },
    });
  });

  it('refuses an unknown variant gallery setting', () => {
    expect(() => loadConnectorConfig({ ...base, CONNECTOR_MEDIA_VARIANT_GALLERIES: 'own' })).toThrow(
      'CONNECTOR_MEDIA_VARIANT_GALLERIES',
    );
  });

  it("gives media jobs one deduplication id per product, their lane's priority and back-off", () => {
    const { media } = loadConnectorConfig(base);
    const options = syncMediaJobOptions(media, {
      shop: 'demo.myshopify.com',
      productId: '12',
      reason: 'synced',
    });
    expect(options).toMatchObject({
      deduplication: { id: 'media:demo.myshopify.com:12', keepLastIfActive: true },
      delay: 5_000,
      attempts: 5,
      backoff: { type: 'exponential', delay: 30_000 },
    });
    const replay = syncMediaJobOptions(media, {
      shop: 'demo.myshopify.com',
      productId: '12',
      reason: 'replay',
    });
    expect(replay).toMatchObject({ delay: 0 });
    // A quiet shop's live media job has no priority; a resync's images wait in the bulk lane.
    expect(options.priority).toBeUndefined();
    const live = { shop: 'demo.myshopify.com', productId: '12', reason: 'synced' } as const;
    expect(syncMediaJobOptions(media, live, 'live', 2).priority).toBe(2);
    expect(syncMediaJobOptions(media, live, 'bulk', 2).priority).toBe(1_000_002);
  });
});
