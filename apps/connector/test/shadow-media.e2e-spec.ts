import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ShopPreviewDto } from '../src/operations/admin/shop-preview.dto.js';
import { call } from './support/admin-client.js';
import { eventually } from './support/connector-harness.js';
import { countMediaCalls, type MediaWorld, startMediaWorld } from './support/media-world.js';
import { productUpdateBody } from './support/test-shop.js';

interface PlannedRow {
  source: string;
  kind: string;
  method: string;
  path: string;
  before: Record<string, unknown> | null;
  after: Record<string, unknown> | null;
}

// Issue 31, media in shadow: the media step reads and plans a product's images as in live but
// uploads nothing and writes no gallery; each call it would make is a planned write (source
// `media`). No media state is stored, so going live uploads the images, once.
describe('a shop in shadow: product images', () => {
  let world: MediaWorld;
  const token = `admin-${randomBytes(16).toString('hex')}`;

  beforeAll(async () => {
    world = await startMediaWorld({ shops: ['shadow'], env: { CONNECTOR_ADMIN_TOKEN: token } });
  });
  afterAll(async () => {
    await world?.close();
  });

  const mode = (value: string) =>
    call(world.harness.url, 'PUT', `/admin/shops/${world.shop('shadow').shop.domain}/mode`, token, {
      mode: value,
    });
  const planned = async (productId: string) =>
    (
      await world.harness.db.query<PlannedRow>(
        `SELECT source, kind, method, path, before, after FROM "${world.harness.schema}".planned_writes
          WHERE shop = $1 AND product_id = $2 ORDER BY source, seq`,
        [world.shop('shadow').shop.domain, productId],
      )
    ).rows;

  it('plans the uploads and the gallery, sends none of them; going live uploads each image once', async () => {
    const { shop, account } = world.shop('shadow');
    expect((await mode('shadow')).status).toBe(200);
    const { productId } = await world.createProduct(shop, ['front', 'back']);
    await account.controls.clearRequests();
    const current = await world.merchant(shop, 'GET', `products/${productId}.json`);
    const delivered = await world.harness.deliver({
      shop,
      body: productUpdateBody(productId, current.product.updated_at),
    });
    expect(delivered.status).toBe(200);

    const media = await eventually(async () => {
      const rows = (await planned(productId)).filter((row) => row.source === 'media');
      return rows.length > 0 && rows;
    }, 30_000);
    expect(media.map((row) => `${row.method} ${row.path}`)).toEqual([
      'POST /v1/upload/prepare',
      'POST /v1/upload/prepare',
      'PATCH /v1/products/{skuId}',
    ]);
    expect(media[2]?.before).toEqual({ media: [] });
    const upload = expect.stringMatching(/^upload:gid:\/\/shopify\/MediaImage\/\d+$/);
    expect(media[2]?.after).toEqual({ media: [upload, upload] });
    const shadowLog = await account.controls.requests();
    const writes = shadowLog.filter((r) => r.method !== 'GET' && r.path.startsWith('/v1/'));
    expect(writes.filter((r) => !r.path.endsWith('/search'))).toEqual([]);
    expect(countMediaCalls(shadowLog)).toMatchObject({ prepare: 0, status: 0, patch: 0 });
    expect(await world.mediaStatus(shop, productId)).toBeUndefined();

    // The preview names each upload by its image and the record whose gallery holds it.
    const preview = await call<ShopPreviewDto>(
      world.harness.url,
      'GET',
      `/admin/shops/${shop.domain}/preview`,
      token,
    );
    expect(preview.status, preview.text).toBe(200);
    const records = preview.body.products.find((p) => p.productId === productId)?.records ?? [];
    const record = records.find((r) => r.kind === 'record');
    expect(record?.supplierSku).toMatch(/\S/);
    const uploads = records.filter((r) => r.kind === 'upload');
    expect(uploads).toHaveLength(2);
    for (const row of uploads) {
      expect(row).toMatchObject({
        source: 'catalog',
        supplierSku: record?.supplierSku,
        calls: ['POST /v1/upload/prepare'],
        image: { shopifyMediaId: expect.stringMatching(/^gid:\/\/shopify\/MediaImage\/\d+$/) },
      });
      expect(row.finalState).toEqual({
        shopifyMediaId: row.image?.shopifyMediaId,
        sourceUrl: row.image?.sourceUrl,
        fileId: `upload:${row.image?.shopifyMediaId}`,
      });
      expect(row.image?.sourceUrl).toMatch(/^https?:\/\//);
    }
    const csv = await call<string>(
      world.harness.url,
      'GET',
      `/admin/shops/${shop.domain}/preview?format=csv`,
      token,
    );
    const uploadLines = csv.text.split('\r\n').filter((line) => line.includes('POST /v1/upload/prepare'));
    expect(uploadLines.filter((line) => line.includes(',sourceUrl,'))).toHaveLength(2);

    // Live: the go-live sync creates the record, then its media run uploads both images, once.
    expect((await mode('live')).status).toBe(200);
    const status = await eventually(async () => (await world.mediaStatus(shop, productId)) ?? false, 30_000);
    expect(status).toMatchObject({ images: 2, uploads: 2, writes: 1, image_failures: [] });
    const { skuId } = await world.record(shop, productId);
    const order = await world.fileIdsInShopifyOrder(shop, productId);
    expect(await world.catalogMedia(account, skuId)).toEqual(order);
    const liveLog = await account.controls.requests();
    expect(countMediaCalls(liveLog).prepare).toBe(2);
    expect(await planned(productId)).toEqual([]);
  });
});
