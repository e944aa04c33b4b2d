import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EnrichmentFixture, type MappedProduct } from './support/enrichment-fixture.js';

// Reviews that change after the fact (the catalog sandbox's reviews move neither updatedAt nor
// completedAt, and no overlap window re-reads the record here), and variants removed in Shopify.
describe('approved content kept under watch', () => {
  let fx: EnrichmentFixture;

  beforeAll(async () => {
    fx = await EnrichmentFixture.start({
      env: { CONNECTOR_ENRICHMENT_OVERLAP_MS: '0', CONNECTOR_ENRICHMENT_REWALK_INTERVAL_MS: '0' },
    });
  });
  afterAll(async () => {
    await fx?.close();
  });

  const enriched = async (title: string): Promise<MappedProduct> => {
    const product = await fx.product(title);
    await fx.enrich([product.parentSku, ...product.variantSkus]);
    return product;
  };
  /** Reviews every enriched value of the record: `approve` approved, the others rejected (it leaves the watchlist). */
  const reviewAll = async (skuId: string, approve: string[]) => {
    const record = await fx.account.api.get(`/v1/products/${skuId}`);
    const enrichedKeys = (record.body.data.attributes as Array<{ key: string; blame?: string }>)
      .filter((a) => a.blame === 'ENRICHMENT')
      .map((a) => a.key);
    await fx.review(skuId, { approve, reject: enrichedKeys.filter((k) => !approve.includes(k)) });
  };
  const history = async (product: MappedProduct) => {
    const { rows } = await fx.harness.db.query<{ attribute: string; purpose: string; result: string }>(
      `SELECT attribute, purpose, result FROM "${fx.harness.schema}".write_back_push
        WHERE shop = $1 AND product_id = $2 ORDER BY id`,
      [fx.shop.domain, product.productId],
    );
    return rows;
  };

  it('retracts a value rejected long after it was approved and pushed, and pushes one approved after a reject', async () => {
    // Simple products: one record each, which leaves the watchlist once every value is reviewed.
    const [product, other, later] = (await fx.simpleProducts(3)) as [
      MappedProduct,
      MappedProduct,
      MappedProduct,
    ];
    await fx.enrich([product.parentSku, other.parentSku]);
    await reviewAll(product.parentSku, ['seoTitle']);
    await reviewAll(other.parentSku, []);
    await fx.poll();
    const title = await fx.value(product.parentSku, 'seoTitle');
    expect((await fx.shopify(product.gid)).seo.title).toBe(title);
    expect((await fx.shopify(other.gid)).seo.title).not.toBe(await fx.value(other.parentSku, 'seoTitle'));

    // The account moves on: another product is synced and enriched, polled past.
    await fx.enrich([later.parentSku]);
    await fx.poll();

    // Then the reviews change: neither updatedAt nor completedAt moves.
    await fx.review(product.parentSku, { reject: ['seoTitle'] });
    await fx.review(other.parentSku, { approve: ['seoTitle'] });
    await fx.poll();
    expect((await fx.shopify(product.gid)).seo.title).not.toBe(title);
    expect((await history(product)).map((h) => [h.attribute, h.purpose, h.result])).toEqual([
      ['seoTitle', 'push', 'ok'],
      ['seoTitle', 'retract', 'ok'],
    ]);
    expect((await fx.shopify(other.gid)).seo.title).toBe(await fx.value(other.parentSku, 'seoTitle'));
  });

  it('records no merchant edit for the metafields of a variant the merchant removed', async () => {
    const product = await enriched('Two size shirt');
    await fx.review(product.variantSkus[0] as string, { approve: ['variantTitle'] });
    await fx.poll();
    const state = await fx.shopify(product.gid);
    expect(
      state.metafields.some((m) => m.ownerId === product.variantGids[0] && m.key === 'variant_title'),
    ).toBe(true);

    const kept = Number(product.variantGids[1]?.split('/').at(-1));
    const removed = await fx.sandboxes.merchant(fx.shop, 'PUT', `products/${product.productId}.json`, {
      product: { id: Number(product.productId), variants: [{ id: kept }] },
    });
    expect(removed.status).toBe(200);
    await fx.synced(product.productId, 2);
    expect((await history(product)).filter((h) => h.result === 'conflict')).toEqual([]);
  });

  it("leaves a merchant's edit made between the push's read and its write, and records the conflict", async () => {
    const [product] = (await fx.simpleProducts(1)) as [MappedProduct];
    await fx.enrich([product.parentSku]);
    await reviewAll(product.parentSku, ['seoTitle']);
    const hooks = fx.pushSeams;
    hooks.afterIntent = async () => {
      const edit = await fx.sandboxes.merchant(fx.shop, 'PUT', `products/${product.productId}.json`, {
        product: { id: Number(product.productId), metafields_global_title_tag: 'Typed by the merchant' },
      });
      expect(edit.status).toBe(200);
    };
    try {
      await fx.poll();
    } finally {
      hooks.afterIntent = async () => {};
    }
    expect((await fx.shopify(product.gid)).seo.title).toBe('Typed by the merchant');
    expect((await history(product)).map((h) => [h.attribute, h.purpose, h.result])).toEqual([
      ['seoTitle', 'conflict', 'conflict'],
    ]);
    expect((await fx.writes(product)).filter((w) => w.operationName === 'WriteBackProductUpdate')).toEqual(
      [],
    );
  });
});
