import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { FIRST_READ_VARIANTS, fetchCanonicalProduct } from './fetch-canonical-product.js';
import type { ShopAdminClient } from './shop-admin.client.js';

const fixture = new URL(
  '../../../test/fixtures/shopify/product-read.example-t-shirt.graphql.json',
  import.meta.url,
);

/** An Admin client answering the docs' example product, its variant count set to `count`. */
function admin(count: number) {
  const asked: Array<{ variants: unknown; media: boolean; cost: number }> = [];
  const client = {
    request: async (document: string, variables: Record<string, unknown>, cost: number) => {
      asked.push({ variants: variables.variants, media: document.includes('media(first'), cost });
      const body = JSON.parse(readFileSync(fixture, 'utf8')) as {
        data: { product: Record<string, unknown> };
      };
      body.data.product.variantsCount = { count };
      return body.data;
    },
  } as unknown as ShopAdminClient;
  return { client, asked };
}

describe('fetchCanonicalProduct', () => {
  it('asks for the variants last synced plus a few, and for the media only when needed', async () => {
    const { client, asked } = admin(2);
    const read = await fetchCanonicalProduct(client, '1', { expectedVariants: 2, media: false });
    expect(read.product?.variants).toHaveLength(2);
    expect(asked).toEqual([{ variants: 12, media: false, cost: 6 + 3 * 12 }]);
    expect(read.requestedCost).toBe(42);
    await fetchCanonicalProduct(client, '1', { expectedVariants: null, media: true });
    expect(asked[1]).toEqual({
      variants: FIRST_READ_VARIANTS,
      media: true,
      cost: 6 + 3 * FIRST_READ_VARIANTS + 202,
    });
  });

  it('reads again with a full page when the product has more variants than it asked for', async () => {
    const { client, asked } = admin(120);
    const read = await fetchCanonicalProduct(client, '1', { expectedVariants: null, media: false });
    expect(asked.map((a) => a.variants)).toEqual([FIRST_READ_VARIANTS, 250]);
    expect(read.requestedCost).toBe(6 + 3 * FIRST_READ_VARIANTS + 6 + 3 * 250);
  });
});
