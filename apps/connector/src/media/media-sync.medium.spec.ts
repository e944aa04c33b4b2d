import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { CatalogClient, type CatalogClientMetrics } from '#lib/catalog-client';
import { ManualClock } from '#lib/clock';
import { uniqueId } from '#lib/testing';
import {
  type CatalogSandboxHarness,
  productBody,
  type RequestLogEntry,
  startCatalogSandbox,
  type TestAccount,
} from '#testing/catalog-sandbox';
import { type ShopifySandboxHarness, startShopifySandbox } from '#testing/shopify-sandbox';
import { drive, InMemoryGalleryStates, InMemoryImageMap } from '../../test/support/media-unit.js';
import { PRODUCT_MEDIA_QUERY } from '../clients/shopify/documents/product-media.query.js';
import { parseAllowlist, shopifyCdnAllowlist } from './fetch/allowlist.js';
import { SafeImageFetcher } from './fetch/safe-image-fetcher.js';
import type { ProductImages } from './model/product-images.js';
import type { MediaRecord } from './plan/desired-galleries.js';
import { productImagesOf } from './read/product-media.reader.js';
import { syncProductMedia } from './run/sync-product-media.js';
import { MEDIA_UPLOAD_OPTIONS } from './upload/upload-image.js';

// Processing takes 60 s of the shared manual clock, inside the spec's 30 s to 2 min.
const PROCESSING_MS = 60_000;

/**
 * The media step end to end against both sandboxes: a Shopify sandbox product's images fetched
 * from its CDN (the only allowed host), uploaded to the catalog sandbox (object store, status
 * polls), and the record's `media` written in Shopify's order. Catalog calls are counted in the
 * catalog sandbox's request log.
 */
describe('product images into the catalog (Shopify sandbox -> catalog sandbox)', () => {
  const clock = new ManualClock(Date.UTC(2026, 5, 1));
  let catalog: CatalogSandboxHarness;
  let shopify: ShopifySandboxHarness;
  let client: CatalogClient | undefined;

  beforeAll(async () => {
    catalog = await startCatalogSandbox({
      clock,
      env: { CATALOG_SANDBOX_UPLOAD_PROCESSING_MS: String(PROCESSING_MS) },
    });
    shopify = await startShopifySandbox();
  });
  afterEach(async () => {
    await client?.close();
    client = undefined;
  });
  afterAll(async () => {
    await shopify.close();
    await catalog.close();
  });

  async function setup(metrics: Partial<CatalogClientMetrics> = {}) {
    const account = await catalog.createAccount();
    client = new CatalogClient({
      baseUrl: catalog.url,
      apiKey: account.apiKey,
      clock,
      uploads: MEDIA_UPLOAD_OPTIONS,
      metrics,
    });
    const sku = uniqueId('MUG');
    const record = await drive(
      clock,
      client.createProduct(productBody(sku) as Parameters<CatalogClient['createProduct']>[0]),
    );
    await account.controls.clearRequests();
    const shop = uniqueId('shop');
    const deps = {
      catalog: client,
      images: new SafeImageFetcher({ allowlist: parseAllowlist([shopify.url]) }),
      imageMap: new InMemoryImageMap(),
      galleries: new InMemoryGalleryStates(),
      clock,
    };
    const records: MediaRecord[] = [
      { kind: 'simple', shopifyVariantId: null, supplierSku: sku, skuId: record.skuId },
    ];
    const sync = (product: ProductImages) => drive(clock, syncProductMedia(deps, { shop, product, records }));
    /** The catalog images of Shopify images, as the image map holds them. */
    const fileIdsOf = (product: ProductImages) =>
      product.images.map((i) => deps.imageMap.rows.get(`${shop}|${i.id}`)?.fileId);
    return { account, client, deps, records, skuId: record.skuId, sync, fileIdsOf };
  }

  async function createShopifyProduct(names: string[]) {
    const created = await shopify.merchant('POST', 'products.json', {
      product: {
        title: uniqueId('Mug'),
        images: names.map((n) => ({ src: `https://example.com/${n}.jpg`, alt: n })),
      },
    });
    expect(created.status).toBe(201);
    const body = created.body.product as {
      id: number;
      admin_graphql_api_id: string;
      images: Array<{ id: number }>;
    };
    return { id: body.id, gid: body.admin_graphql_api_id, imageIds: body.images.map((i) => i.id) };
  }

  async function readImages(gid: string): Promise<ProductImages> {
    const reply = await shopify.graphql(PRODUCT_MEDIA_QUERY, { id: gid });
    expect(reply.errors).toBeUndefined();
    const read = productImagesOf(reply.data);
    if (!read) throw new Error(`product ${gid} not found`);
    return { ...read, variantImages: [] };
  }

  async function catalogMedia(account: TestAccount, skuId: string): Promise<unknown> {
    const res = await account.api.get(`/v1/products/${skuId}`).expect(200);
    return (res.body.data.attributes as Array<{ key: string; value: unknown }>).find((a) => a.key === 'media')
      ?.value;
  }

  function summarize(log: RequestLogEntry[]) {
    const count = (path: string, method?: string) =>
      log.filter((r) => (r.path === path || r.path.startsWith(path)) && (!method || r.method === method))
        .length;
    return {
      prepare: count('/v1/upload/prepare'),
      status: count('/v1/upload/status'),
      get: count('/v1/products/', 'GET'),
      patch: count('/v1/products/', 'PATCH'),
      total: log.length,
    };
  }

  it("uploads a product's 3 images once each and writes media in Shopify's order; a re-run uploads nothing", async () => {
    const waits: Array<{ endpoint: string; priority: string }> = [];
    const { account, fileIdsOf, skuId, sync } = await setup({ limiterWait: (e) => waits.push(e) });
    waits.length = 0; // the record's create (normal priority) is the attribute sync's
    const product = await createShopifyProduct(['front', 'side', 'back']);
    const images = await readImages(product.gid);
    expect(images.images).toHaveLength(3);

    const result = await sync(images);
    expect(result.imageFailures).toEqual([]);
    expect(result.uploads).toHaveLength(3);
    const inShopifyOrder = fileIdsOf(images);
    expect(inShopifyOrder.every((id) => /^IM\d{8}$/.test(id ?? ''))).toBe(true);
    const log = await account.controls.requests(); // before the test's own read below
    expect(await catalogMedia(account, skuId)).toEqual(inShopifyOrder);
    const calls = summarize(log);
    console.log(
      `media: 3 images -> ${calls.total} catalog calls (${calls.prepare} prepare, ${calls.status} status polls, ${calls.get} gallery read, ${calls.patch} media PATCH) = ${(calls.total / 3).toFixed(1)} per image; object-store PUTs are not /v1 calls`,
    );
    expect(calls).toMatchObject({ prepare: 3, get: 1, patch: 1 });
    expect(calls.status).toBeLessThanOrEqual(3 * 3); // 60 s of processing: polls at 40, 50, 70 s
    expect(log.every((r) => r.status === 200 || (r.path === '/v1/upload/status' && r.status === 404))).toBe(
      true,
    );
    // Every media call waited in the limiter at bulk priority, below attribute sync.
    expect(waits.length).toBe(calls.total);
    expect(new Set(waits.map((w) => w.priority))).toEqual(new Set(['bulk']));

    await account.controls.clearRequests();
    const again = await sync(await readImages(product.gid));
    expect(again).toMatchObject({ fetched: 0, uploads: [], writes: [] });
    expect(await account.controls.requests()).toEqual([]);
  });

  it('a reorder in Shopify makes zero uploads and one PATCH; adding an image makes one upload', async () => {
    const { account, fileIdsOf, skuId, sync } = await setup();
    const product = await createShopifyProduct(['a', 'b', 'c']);
    await sync(await readImages(product.gid));
    const [a, b, c] = product.imageIds;
    const moved = await shopify.merchant('PUT', `products/${product.id}.json`, {
      product: { images: [{ id: c }, { id: a }, { id: b }] },
    });
    expect(moved.status).toBe(200);
    await account.controls.clearRequests();

    const reordered = await readImages(product.gid);
    const result = await sync(reordered);
    expect(result.uploads).toEqual([]);
    expect(summarize(await account.controls.requests())).toMatchObject({ prepare: 0, status: 0, patch: 1 });
    expect(await catalogMedia(account, skuId)).toEqual(fileIdsOf(reordered));

    const added = await shopify.merchant('PUT', `products/${product.id}.json`, {
      product: { images: [{ id: c }, { id: a }, { id: b }, { src: 'https://example.com/d.jpg' }] },
    });
    expect(added.status).toBe(200);
    await account.controls.clearRequests();
    const withFour = await readImages(product.gid);
    expect((await sync(withFour)).uploads).toHaveLength(1);
    expect(summarize(await account.controls.requests())).toMatchObject({ prepare: 1, patch: 1 });
    expect(await catalogMedia(account, skuId)).toEqual(fileIdsOf(withFour));
  });

  it('a broken image is a typed failure while the others reach the catalog; mended, it is uploaded alone', async () => {
    const { account, skuId, sync } = await setup();
    const product = await createShopifyProduct(['ok-1', 'broken', 'ok-2']);
    const images = await readImages(product.gid);
    const broken = images.images[1];
    const fault = (value: string | null) =>
      shopify.control('PUT', `shops/${shopify.shopDomain}/image-faults`, { src: broken?.url, fault: value });
    expect((await fault('not-an-image')).status).toBe(200);

    const result = await sync(images);
    expect(result.imageFailures).toEqual([
      expect.objectContaining({
        mediaId: broken?.id,
        stage: 'fetch',
        error: expect.objectContaining({ code: 'not_an_image', retryable: false }),
      }),
    ]);
    expect(result.uploads).toHaveLength(2);
    expect(await catalogMedia(account, skuId)).toHaveLength(2);

    expect((await fault('404')).status).toBe(200);
    const gone = await sync(images);
    expect(gone.imageFailures.map((f) => f.error.code)).toEqual(['not_found']);
    expect(gone.uploads).toEqual([]);

    expect((await fault(null)).status).toBe(200);
    const mended = await sync(images);
    expect(mended.imageFailures).toEqual([]);
    expect(mended.uploads.map((u) => u.mediaIds)).toEqual([[broken?.id]]);
    expect(await catalogMedia(account, skuId)).toHaveLength(3);
  });

  it('never requests an image URL outside the allowlist (a counting server gets no hit)', async () => {
    let hits = 0;
    const outside: Server = createServer((_req, res) => {
      hits += 1;
      res.end();
    });
    await new Promise<void>((resolve) => outside.listen(0, '127.0.0.1', resolve));
    try {
      const { account, skuId, sync } = await setup();
      const product = await createShopifyProduct(['one', 'two']);
      const images = await readImages(product.gid);
      const port = (outside.address() as AddressInfo).port;
      const tampered: ProductImages = {
        ...images,
        images: [
          images.images[0],
          { id: 'gid://shopify/MediaImage/1', alt: null, url: `http://localhost:${port}/x.png` },
          images.images[1],
        ].filter((i) => i !== undefined),
      };
      const result = await sync(tampered);
      expect(result.imageFailures.map((f) => [f.mediaId, f.error.code])).toEqual([
        ['gid://shopify/MediaImage/1', 'forbidden_host'],
      ]);
      expect(hits).toBe(0);
      expect(await catalogMedia(account, skuId)).toHaveLength(2);
      // Shopify's own default allowlist does not include the sandbox either.
      expect(
        new SafeImageFetcher({ allowlist: shopifyCdnAllowlist(shopify.shopDomain) }).allows(
          images.images[0]?.url ?? '',
        ),
      ).toBe(false);
    } finally {
      await new Promise((resolve) => outside.close(resolve));
    }
  });
});
