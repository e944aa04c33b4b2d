import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SkuMapRepository } from '../src/product-sync/sku-map/sku-map.repository.js';
import { EnrichmentFixture } from './support/enrichment-fixture.js';

const PARENT_KEYS = ['seoTitle', 'aiTags', 'aiDescription', 'material', 'careInstructions', 'aiBulletPoints'];

// Issue 30: a product of 3 colours x 200 sizes, split into 3 catalog parents, enriched in the
// catalog sandbox's portal and written back to the Shopify sandbox: product-level values from the
// first parent, a variant's values from its own record under whichever parent.
describe('large products: enrichment written back from a split product', () => {
  let fx: EnrichmentFixture;

  beforeAll(async () => {
    fx = await EnrichmentFixture.start({
      shopify: { cost: { bucketSize: 1_000_000, restoreRate: 1_000_000 } },
      env: { CONNECTOR_CATALOG_RATE_PER_SECOND: '2000', CONNECTOR_CATALOG_RATE_BURST: '50' },
    });
  });
  afterAll(async () => {
    await fx?.close();
  });

  it('writes back the first parent product-level values and a variant of the third group its own', async () => {
    const variants = ['Red', 'Green', 'Blue'].flatMap((colour, c) =>
      Array.from({ length: 200 }, (_, i) => ({
        option1: colour,
        option2: `S${i + 1}`,
        price: '5.00',
        barcode: String(4006381300000 + c * 1000 + i),
      })),
    );
    const created = await fx.sandboxes.merchant(fx.shop, 'POST', 'products.json', {
      product: {
        title: 'Rainbow linen',
        vendor: 'Acme',
        product_type: 'Shirts',
        options: [{ name: 'Colour' }, { name: 'Size' }],
        variants,
      },
    });
    const productId = String((created.body.product as { id: number }).id);
    await fx.synced(productId, 603);
    const rows = await fx.harness.connector.app
      .get(SkuMapRepository)
      .rowsOfProduct(fx.shop.domain, productId);
    const parents = rows.filter((r) => r.kind === 'parent');
    expect(parents).toHaveLength(3);
    const [first, , third] = parents as [(typeof rows)[number], unknown, (typeof rows)[number]];
    const variant = rows.find(
      (r) => r.kind === 'variant' && r.parentSupplierSku === third.supplierSku,
    ) as (typeof rows)[number];
    await fx.enrich([...parents.map((p) => p.skuId as string), variant.skuId as string]);
    await fx.review(first.skuId as string, { approve: PARENT_KEYS });
    await fx.review(variant.skuId as string, { approve: ['variantTitle'] });
    await fx.poll();

    const gid = `gid://shopify/Product/${productId}`;
    const state = await fx.shopify(gid);
    expect(state.seo.title).toBe(await fx.value(first.skuId as string, 'seoTitle'));
    const metafield = (owner: string, key: string) =>
      state.metafields.find((m) => m.ownerId === owner && m.key === key)?.value;
    expect(metafield(gid, 'material')).toBe(await fx.value(first.skuId as string, 'material'));
    expect(metafield(`gid://shopify/ProductVariant/${variant.shopifyVariantId}`, 'variant_title')).toBe(
      await fx.value(variant.skuId as string, 'variantTitle'),
    );
  });
});
