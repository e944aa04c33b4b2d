import { randomBytes } from 'node:crypto';
import { getQueueToken } from '@nestjs/bullmq';
import type { Queue } from 'bullmq';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MediaStatus } from '../src/media/store/media-status.repository.js';
import { FailuresService } from '../src/platform/failures/failures.service.js';
import { call } from './support/admin-client.js';
import { eventually } from './support/connector-harness.js';
import { countMediaCalls, type MediaWorld, mediaCallsIn, startMediaWorld } from './support/media-world.js';
import type { TestShop } from './support/test-shop.js';
import { productUpdateBody } from './support/test-shop.js';

// Product images end to end: a Shopify sandbox product's images reach the catalog sandbox's
// record as `media`. The sync engine creates the record (reference mapping), then the media job
// enqueued after the product's sync uploads and writes the gallery. Processing is short in the
// sandbox and the polls are scaled down to match; every test has its own shop and catalog
// account, so each account's request log holds that test's calls only.
describe('product images into the catalog (connector, both sandboxes)', () => {
  let world: MediaWorld;
  const token = `admin-${randomBytes(16).toString('hex')}`;
  /** The product's media status as `GET /admin/products/{id}` shows it. */
  const mediaOfStatus = async (productId: string, shop: string) => {
    const answer = await call<{ media: MediaStatus | null }>(
      world.harness.url,
      'GET',
      `/admin/products/${productId}?shop=${shop}`,
      token,
    );
    expect(answer.status).toBe(200);
    return answer.body.media;
  };

  /** The shop's Shopify Admin requests of one GraphQL operation, as the sandbox logged them. */
  const adminRequests = async (shop: TestShop, operationName: string) => {
    const answer = await world.shopify.control('GET', `shops/${shop.domain}/admin-requests`);
    const requests = (
      answer.body as unknown as {
        requests: Array<{ operationName: string | null; requestedQueryCost: number | null }>;
      }
    ).requests;
    return requests.filter((r) => r.operationName === operationName);
  };
  /**
   * Delivers a products/update for the product as Shopify has it now and waits for its sync run
   * to be recorded (the after-sync listeners have run by then) and for the media queue to be
   * idle (a media job the sync asked for has run by then).
   */
  const syncAndSettle = async (shop: TestShop, productId: string) => {
    const runs = async () =>
      (
        await world.harness.db.query(
          `SELECT 1 FROM "${world.harness.schema}".sync_records WHERE shop = $1 AND product_id = $2`,
          [shop.domain, productId],
        )
      ).rows.length;
    const before = await runs();
    const current = await world.merchant(shop, 'GET', `products/${productId}.json`);
    const delivered = await world.harness.deliver({
      shop,
      body: productUpdateBody(productId, current.product.updated_at),
    });
    expect(delivered.status).toBe(200);
    await eventually(async () => (await runs()) > before, 30_000);
    const queue = world.harness.connector.app.get<Queue>(getQueueToken('sync-media'), { strict: false });
    await eventually(async () => {
      const counts = await queue.getJobCounts('waiting', 'active', 'delayed', 'prioritized');
      return Object.values(counts).every((n) => n === 0);
    }, 30_000);
  };

  beforeAll(async () => {
    world = await startMediaWorld({
      shops: ['order', 'reorder', 'broken', 'mended', 'foreign', 'title'],
      env: { CONNECTOR_ADMIN_TOKEN: token },
    });
  });
  afterAll(async () => {
    await world?.close();
  });

  /** The product's media calls since the request log was cleared and the engine had made `engineBefore` calls. */
  const mediaCalls = async (name: string, productId: string, skuId: string, engineBefore: number) => {
    const { shop, account } = world.shop(name);
    const log = await account.controls.requests();
    return mediaCallsIn(log, skuId, await world.engineCalls(shop, productId), engineBefore);
  };

  it("puts a product's 3 images into the catalog in Shopify's order; re-sending it runs no media job", async () => {
    const { shop, account } = world.shop('order');
    const { productId } = await world.createProduct(shop, ['front', 'side', 'back']);
    await account.controls.clearRequests();

    const status = await world.syncAndWaitForMedia(shop, productId);
    expect(status).toMatchObject({ images: 3, uploads: 3, writes: 1, image_failures: [] });
    const { skuId } = await world.record(shop, productId);
    const calls = countMediaCalls(await mediaCalls('order', productId, skuId, 0));
    const order = await world.fileIdsInShopifyOrder(shop, productId);
    expect(order.every((id) => /^IM\d{8}$/.test(id))).toBe(true);
    expect(new Set(order).size).toBe(3);
    expect(await world.catalogMedia(account, skuId)).toEqual(order);
    console.log(
      `media e2e: 3 images -> ${calls.total} catalog /v1 calls (${calls.prepare} prepare, ${calls.status} status polls, ` +
        `${calls.get} gallery read, ${calls.patch} media PATCH) = ${(calls.total / 3).toFixed(1)} per image ` +
        "(300 ms of processing, polls scaled down; object-store PUTs are not /v1 calls; the sync engine's calls left out)",
    );
    expect(calls).toMatchObject({ prepare: 3, get: 1, patch: 1, total: 3 + calls.status + 2 });

    await account.controls.clearRequests();
    const engineBefore = (await world.engineCalls(shop, productId)).length;
    const mediaReads = (await adminRequests(shop, 'ProductMedia')).length;
    await syncAndSettle(shop, productId);
    expect((await world.mediaStatus(shop, productId))?.last_run_at).toEqual(status.last_run_at);
    expect((await adminRequests(shop, 'ProductMedia')).length).toBe(mediaReads);
    expect(await mediaCalls('order', productId, skuId, engineBefore)).toEqual([]);
    expect(await world.catalogMedia(account, skuId)).toEqual(order);
  });

  it('a title-only edit syncs the title with no media job and no media read from Shopify', async () => {
    const { shop, account } = world.shop('title');
    const { productId } = await world.createProduct(shop, ['left', 'right']);
    const first = await world.syncAndWaitForMedia(shop, productId);
    expect(first).toMatchObject({ images: 2, uploads: 2, writes: 1 });
    const { skuId } = await world.record(shop, productId);
    const gallery = await world.catalogMedia(account, skuId);
    const mediaReads = (await adminRequests(shop, 'ProductMedia')).length;
    expect(mediaReads).toBe(1);

    const renamed = await world.merchant(shop, 'PUT', `products/${productId}.json`, {
      product: { title: 'Renamed Mug' },
    });
    expect(renamed.status).toBe(200);
    await syncAndSettle(shop, productId);
    const record = await account.api.get(`/v1/products/${skuId}`).expect(200);
    const attributes = record.body.data.attributes as Array<{ key: string; value: unknown }>;
    expect(attributes.find((a) => a.key === 'name')?.value).toBe('Renamed Mug');
    // The media query was not sent again, and no media run happened.
    expect((await adminRequests(shop, 'ProductMedia')).length).toBe(0 + mediaReads);
    expect((await world.mediaStatus(shop, productId))?.last_run_at).toEqual(first.last_run_at);
    expect(await world.catalogMedia(account, skuId)).toEqual(gallery);
    // The sync's own read now carries the images, and stays under Shopify's 1,000 points per query.
    const reads = await adminRequests(shop, 'CanonicalProduct');
    expect(reads.length).toBeGreaterThanOrEqual(2);
    for (const read of reads) expect(read.requestedQueryCost).toBeLessThan(1_000);
  });

  it('a reorder makes zero uploads and one PATCH; adding an image makes one upload', async () => {
    const { shop, account } = world.shop('reorder');
    const { productId, product } = await world.createProduct(shop, ['a', 'b', 'c']);
    await world.syncAndWaitForMedia(shop, productId);
    const { skuId } = await world.record(shop, productId);
    const [a, b, c] = product.images.map((i) => i.id);

    const moved = await world.merchant(shop, 'PUT', `products/${productId}.json`, {
      product: { images: [{ id: c }, { id: a }, { id: b }] },
    });
    expect(moved.status).toBe(200);
    await account.controls.clearRequests();
    let engineBefore = (await world.engineCalls(shop, productId)).length;
    expect(await world.syncAndWaitForMedia(shop, productId)).toMatchObject({ uploads: 0, writes: 1 });
    expect(countMediaCalls(await mediaCalls('reorder', productId, skuId, engineBefore))).toMatchObject({
      prepare: 0,
      status: 0,
      patch: 1,
    });
    const reordered = await world.fileIdsInShopifyOrder(shop, productId);
    expect(await world.catalogMedia(account, skuId)).toEqual(reordered);

    const added = await world.merchant(shop, 'PUT', `products/${productId}.json`, {
      product: { images: [{ id: c }, { id: a }, { id: b }, { src: 'https://example.com/d.jpg' }] },
    });
    expect(added.status).toBe(200);
    await account.controls.clearRequests();
    engineBefore = (await world.engineCalls(shop, productId)).length;
    expect(await world.syncAndWaitForMedia(shop, productId)).toMatchObject({
      images: 4,
      uploads: 1,
      writes: 1,
    });
    expect(countMediaCalls(await mediaCalls('reorder', productId, skuId, engineBefore))).toMatchObject({
      prepare: 1,
      patch: 1,
    });
    const withFour = await world.fileIdsInShopifyOrder(shop, productId);
    expect(withFour.slice(0, 3)).toEqual(reordered);
    expect(await world.catalogMedia(account, skuId)).toEqual(withFour);
  });

  it('a broken image lands in the failures table while the rest of the product syncs', async () => {
    const { shop, account } = world.shop('broken');
    const { productId, product } = await world.createProduct(shop, ['ok-1', 'broken', 'ok-2']);
    const brokenSrc = product.images[1]?.src;
    const fault = (value: string | null) =>
      world.shopify.control('PUT', `shops/${shop.domain}/image-faults`, { src: brokenSrc, fault: value });
    expect((await fault('not-an-image')).status).toBe(200);

    const status = await world.syncAndWaitForMedia(shop, productId);
    expect(status).toMatchObject({ images: 3, uploads: 2, writes: 1 });
    expect(status.image_failures).toEqual([expect.objectContaining({ code: 'not_an_image' })]);
    const failures = await eventually(async () => {
      const rows = await world.mediaFailures(shop);
      return rows.length > 0 && rows;
    });
    expect(failures).toEqual([
      expect.objectContaining({
        subject_key: `${productId}:${status.image_failures[0]?.mediaId}`,
        error_code: 'not_an_image',
        retryable: false,
        state: 'open',
      }),
    ]);
    const { skuId } = await world.record(shop, productId);
    expect(await world.catalogMedia(account, skuId)).toHaveLength(2);
    // The product's status shows the image left out, and why.
    expect(await mediaOfStatus(productId, shop.domain)).toMatchObject({
      images: 3,
      uploads: 2,
      imageFailures: [{ mediaId: status.image_failures[0]?.mediaId, code: 'not_an_image', stage: 'fetch' }],
    });
    // The rest of the product synced: the record has its mapped name, and its sync run ended well.
    const record = await account.api.get(`/v1/products/${skuId}`).expect(200);
    const attributes = record.body.data.attributes as Array<{ key: string; value: unknown }>;
    expect(attributes.find((a) => a.key === 'name')?.value).toBe(product.title);
    expect((await world.harness.inbox(shop.domain, productId)).map((row) => row.outcome)).toEqual(['synced']);

    // Mended in Shopify, the failure's replay runs the product's media again: only that image is uploaded.
    expect((await fault(null)).status).toBe(200);
    const before = await world.mediaStatus(shop, productId);
    await world.harness.connector.app.get(FailuresService).replay(failures[0]?.id ?? 'none');
    const replayed = await eventually(async () => {
      const now = await world.mediaStatus(shop, productId);
      return now !== undefined && now.last_run_at.getTime() !== before?.last_run_at.getTime() && now;
    });
    expect(replayed).toMatchObject({ uploads: 1, writes: 1, image_failures: [] });
    expect(await world.catalogMedia(account, skuId)).toEqual(
      await world.fileIdsInShopifyOrder(shop, productId),
    );
  });

  it("resolves an image's open failure once a later run syncs it, without a replay", async () => {
    const { shop, account } = world.shop('mended');
    const { productId, product } = await world.createProduct(shop, ['fine', 'flaky']);
    const flakySrc = product.images[1]?.src;
    const fault = (value: string | null) =>
      world.shopify.control('PUT', `shops/${shop.domain}/image-faults`, { src: flakySrc, fault: value });
    expect((await fault('not-an-image')).status).toBe(200);
    const first = await world.syncAndWaitForMedia(shop, productId);
    const mediaId = first.image_failures[0]?.mediaId;
    expect(mediaId).toBeDefined();
    const [open] = await eventually(async () => {
      const rows = await world.mediaFailures(shop);
      return rows.length > 0 && rows;
    });
    expect(open).toMatchObject({ subject_key: `${productId}:${mediaId}`, state: 'open' });

    // Mended in Shopify; the merchant's next edit syncs the product, and its media run uploads the image.
    expect((await fault(null)).status).toBe(200);
    await world.merchant(shop, 'PUT', `products/${productId}.json`, {
      product: { images: [{ id: product.images[1]?.id }, { id: product.images[0]?.id }] },
    });
    const next = await world.syncAndWaitForMedia(shop, productId);
    expect(next).toMatchObject({ uploads: 1, image_failures: [] });
    expect(await world.mediaFailures(shop)).toEqual([
      expect.objectContaining({ id: open?.id, subject_key: `${productId}:${mediaId}`, state: 'resolved' }),
    ]);
    const { rows } = await world.harness.db.query<{ resolved_at: Date | null }>(
      `SELECT resolved_at FROM "${world.harness.schema}".failures WHERE id = $1`,
      [open?.id],
    );
    expect(rows[0]?.resolved_at).toBeInstanceOf(Date);
    expect(await mediaOfStatus(productId, shop.domain)).toMatchObject({ imageFailures: [], images: 2 });
    const { skuId } = await world.record(shop, productId);
    expect(await world.catalogMedia(account, skuId)).toEqual(
      await world.fileIdsInShopifyOrder(shop, productId),
    );
  });

  it('replaces a gallery changed on the catalog side, and records that it did', async () => {
    const { shop, account } = world.shop('foreign');
    const { productId, product } = await world.createProduct(shop, ['one', 'two']);
    await world.syncAndWaitForMedia(shop, productId);
    const { skuId, supplierSku } = await world.record(shop, productId);
    const written = (await world.catalogMedia(account, skuId)) as string[];
    expect(written).toHaveLength(2);
    // Someone edits the gallery in the catalog (drops an image), then the merchant reorders in Shopify.
    await account.api
      .patch(`/v1/products/${skuId}`)
      .send({ product: { supplierSku, attributes: [{ key: 'media', value: written.slice(0, 1) }] } })
      .expect(200);
    const [one, two] = product.images.map((i) => i.id);
    await world.merchant(shop, 'PUT', `products/${productId}.json`, {
      product: { images: [{ id: two }, { id: one }] },
    });

    const status = await world.syncAndWaitForMedia(shop, productId);
    expect(status.notes.map((n) => n.code)).toContain('replaced-foreign-gallery');
    expect(status.foreign_gallery_replaced_at).toBeInstanceOf(Date);
    const shown = await mediaOfStatus(productId, shop.domain);
    expect(shown?.notes.map((n) => n.code)).toContain('replaced-foreign-gallery');
    expect(shown?.foreignGalleryReplacedAt).toBe(status.foreign_gallery_replaced_at?.toISOString());
    expect(await world.catalogMedia(account, skuId)).toEqual(
      await world.fileIdsInShopifyOrder(shop, productId),
    );
  });
});
