import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually } from './support/connector-harness.js';
import { EnrichmentFixture } from './support/enrichment-fixture.js';

// Our own writes come back as products/update; Shopify merges rapid changes into one delivery.
describe('the write-back echo merged with a merchant edit', () => {
  let fx: EnrichmentFixture;

  beforeAll(async () => {
    // A merge window long enough that the merchant's edit right after the push joins its echo.
    fx = await EnrichmentFixture.start({ shopify: { webhooks: { mergeWindowMs: 5_000 } } });
  });
  afterAll(async () => {
    await fx?.close();
  });

  it('syncs the edit and not the echo, and records no conflict', async () => {
    const product = await fx.product('Merged shirt');
    await fx.enrich([product.parentSku, ...product.variantSkus]);
    await fx.review(product.parentSku, { approve: ['seoTitle', 'aiTags', 'material'] });
    const runsBefore = (await fx.syncRuns(product.productId)).length;

    await fx.poll();
    const edit = await fx.sandboxes.merchant(fx.shop, 'PUT', `products/${product.productId}.json`, {
      product: { id: Number(product.productId), title: 'Renamed shirt' },
    });
    expect(edit.status).toBe(200);
    await fx.settle(product.productId);

    const runs = await eventually(async () => {
      const after = (await fx.syncRuns(product.productId)).slice(runsBefore);
      return after.length > 0 && after;
    });
    // One delivery carried both: one run, whose only catalog call is the title's.
    expect(runs).toHaveLength(1);
    const calls = runs[0]?.calls as Array<{ method: string; path: string }>;
    expect(calls.map((c) => `${c.method} ${c.path}`)).toEqual([`PATCH /v1/products/${product.parentSku}`]);
    expect(await fx.value(product.parentSku, 'name')).toBe('Renamed shirt');
    const state = await fx.shopify(product.gid);
    expect(state.seo.title).toBe(await fx.value(product.parentSku, 'seoTitle'));
    const { rows } = await fx.harness.db.query(
      `SELECT 1 FROM "${fx.harness.schema}".write_back_push WHERE shop = $1 AND product_id = $2 AND result = 'conflict'`,
      [fx.shop.domain, product.productId],
    );
    expect(rows).toEqual([]);
  });
});
