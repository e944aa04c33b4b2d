import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually } from './support/connector-harness.js';
import { type MediaWorld, startMediaWorld } from './support/media-world.js';

// Processing that never finishes: the catalog sandbox takes a minute per image, the connector
// gives up polling after half a second. The image is tried again in a later run, then lands in
// the failures table as retryable, while the product's sync itself ended long before.
describe('media: an upload whose processing never finishes', () => {
  let world: MediaWorld;

  beforeAll(async () => {
    world = await startMediaWorld({
      shops: ['slow'],
      processingMs: 60_000,
      env: {
        CONNECTOR_MEDIA_FIRST_POLL_MS: '100',
        CONNECTOR_MEDIA_MAX_PROCESSING_MS: '500',
        CONNECTOR_MEDIA_RETRY_LATER_MS: '100',
        CONNECTOR_MEDIA_RETRY_LATER_MAX: '1',
      },
    });
  });
  afterAll(async () => {
    await world?.close();
  });

  it('tries it again in a later run, then records it as a retryable failure', async () => {
    const { shop, account } = world.shop('slow');
    const { productId } = await world.createProduct(shop, ['cup']);
    await account.controls.clearRequests();

    const first = await world.syncAndWaitForMedia(shop, productId);
    expect(first.image_failures).toEqual([expect.objectContaining({ code: 'upload_processing_timeout' })]);
    const failures = await eventually(async () => {
      const rows = await world.mediaFailures(shop);
      return rows.length > 0 && rows;
    }, 30_000);
    expect(failures).toEqual([
      expect.objectContaining({ error_code: 'upload_processing_timeout', retryable: true, state: 'open' }),
    ]);
    // Two runs (the first and one later run), each preparing the image once.
    expect(await account.controls.requests({ path: '/v1/upload/prepare' })).toHaveLength(2);
    expect((await world.harness.inbox(shop.domain, productId)).map((row) => row.outcome)).toEqual(['synced']);
  });
});
