import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CatalogClient } from '#lib/catalog-client';
import type { ProductWriteRequest } from '#lib/catalog-contract';
import { ManualClock } from '#lib/clock';
import { uniqueId } from '#lib/testing';
import { type CatalogSandboxHarness, productBody, startCatalogSandbox } from '#testing/catalog-sandbox';
import { type ShopifySandboxHarness, startShopifySandbox } from '#testing/shopify-sandbox';
import { drive, InMemoryGalleryStates, InMemoryImageMap } from '../../test/support/media-unit.js';
import { PRODUCT_MEDIA_QUERY } from '../clients/shopify/documents/product-media.query.js';
import { VARIANT_MEDIA_QUERY } from '../clients/shopify/documents/variant-media.query.js';
import { parseAllowlist } from './fetch/allowlist.js';
import { SafeImageFetcher } from './fetch/safe-image-fetcher.js';
import type { MediaRecord } from './plan/desired-galleries.js';
import { productImagesOf, variantImagesOf } from './read/product-media.reader.js';
import { syncProductMedia } from './run/sync-product-media.js';

/**
 * Variant images read from the Shopify sandbox (within Shopify's query cost limit), and the
 * catalog sandbox's inheritance: variants inherit the parent's gallery by default; with
 * `own-image`, a variant with its own image gets its own gallery (inheritance broken).
 */
describe('variant galleries (Shopify sandbox -> catalog sandbox)', () => {
  const clock = new ManualClock(Date.UTC(2026, 5, 1));
  let catalog: CatalogSandboxHarness;
  let shopify: ShopifySandboxHarness;

  beforeAll(async () => {
    catalog = await startCatalogSandbox({ clock });
    shopify = await startShopifySandbox();
  });
  afterAll(async () => {
    await shopify.close();
    await catalog.close();
  });

  it('reads variant images, inherits by default, and gives a variant its own gallery when asked', async () => {
    const created = await shopify.merchant('POST', 'products.json', {
      product: {
        title: uniqueId('Tee'),
        options: [{ name: 'Colour' }],
        variants: [
          { option1: 'Red', sku: uniqueId('RED') },
          { option1: 'Blue', sku: uniqueId('BLUE') },
        ],
        images: [{ src: 'https://example.com/both.jpg' }, { src: 'https://example.com/red.jpg' }],
      },
    });
    expect(created.status).toBe(201);
    const made = created.body.product as {
      id: number;
      admin_graphql_api_id: string;
      variants: Array<{ id: number }>;
      images: Array<{ id: number }>;
    };
    const [red, blue] = made.variants;
    const [both, redImage] = made.images;
    const linked = await shopify.merchant('PUT', `products/${made.id}.json`, {
      product: { images: [{ id: both?.id }, { id: redImage?.id, variant_ids: [red?.id] }] },
    });
    expect(linked.status).toBe(200);

    const mediaReply = await shopify.graphql(PRODUCT_MEDIA_QUERY, { id: made.admin_graphql_api_id });
    const variantReply = await shopify.graphql(VARIANT_MEDIA_QUERY, { id: made.admin_graphql_api_id });
    for (const reply of [mediaReply, variantReply]) {
      expect(reply.errors).toBeUndefined();
      expect(reply.extensions.cost.requestedQueryCost).toBeLessThanOrEqual(1000);
    }
    const read = productImagesOf(mediaReply.data);
    const variantImages = variantImagesOf(variantReply.data);
    if (!read || !variantImages) throw new Error('product not found');
    expect(variantImages).toEqual([
      { variantId: `gid://shopify/ProductVariant/${red?.id}`, mediaIds: [read.images[1]?.id] },
    ]);

    const account = await catalog.createAccount();
    const client = new CatalogClient({ baseUrl: catalog.url, apiKey: account.apiKey, clock });
    try {
      const sku = uniqueId('TEE');
      const parent = await drive(clock, client.createProduct(productBody(sku) as ProductWriteRequest));
      const variantRecord = (suffix: string) =>
        drive(
          clock,
          client.createVariant({ parentSupplierSku: sku, supplierSku: `${sku}-${suffix}`, attributes: [] }),
        );
      const redRecord = await variantRecord('RED');
      const blueRecord = await variantRecord('BLUE');
      const records: MediaRecord[] = [
        { kind: 'parent', shopifyVariantId: null, supplierSku: sku, skuId: parent.skuId },
        {
          kind: 'variant',
          shopifyVariantId: String(red?.id),
          supplierSku: `${sku}-RED`,
          skuId: redRecord.skuId,
        },
        {
          kind: 'variant',
          shopifyVariantId: String(blue?.id),
          supplierSku: `${sku}-BLUE`,
          skuId: blueRecord.skuId,
        },
      ];
      const deps = {
        catalog: client,
        images: new SafeImageFetcher({ allowlist: parseAllowlist([shopify.url]) }),
        imageMap: new InMemoryImageMap(),
        galleries: new InMemoryGalleryStates(),
        clock,
      };
      const product = { ...read, variantImages };
      const shop = uniqueId('shop');
      const mediaOf = async (skuId: string) => {
        const record = await drive(clock, client.getVariant(skuId));
        return record.attributes.find((a) => a.key === 'media');
      };

      const inherited = await drive(clock, syncProductMedia(deps, { shop, product, records }));
      expect(inherited.writes.map((w) => w.record.supplierSku)).toEqual([sku]);
      const parentGallery = inherited.writes[0]?.media;
      expect(parentGallery).toHaveLength(2);
      expect(await mediaOf(redRecord.skuId)).toMatchObject({ value: parentGallery, inherited: true });

      const own = await drive(
        clock,
        syncProductMedia(deps, { shop, product, records, settings: { variantGalleries: 'own-image' } }),
      );
      expect(own.uploads).toEqual([]);
      expect(own.writes.map((w) => [w.record.supplierSku, w.media])).toEqual([
        [`${sku}-RED`, [parentGallery?.[1], parentGallery?.[0]]],
      ]);
      expect((await mediaOf(redRecord.skuId))?.inherited).not.toBe(true);
      expect(await mediaOf(redRecord.skuId)).toMatchObject({
        value: [parentGallery?.[1], parentGallery?.[0]],
      });
      expect(await mediaOf(blueRecord.skuId)).toMatchObject({ value: parentGallery, inherited: true });
    } finally {
      await client.close();
    }
  });
});
