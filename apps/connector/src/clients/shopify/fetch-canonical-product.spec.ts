import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { canonicalReadCost, NO_EXTRA_SOURCES } from './documents/canonical-product.query.js';
import { FIRST_READ_VARIANTS, fetchCanonicalProduct, fullVariantPage } from './fetch-canonical-product.js';
import type { ShopAdminClient } from './shop-admin.client.js';

const fixture = new URL(
  '../../../test/fixtures/shopify/product-read.example-t-shirt.graphql.json',
  import.meta.url,
);

/** An Admin client answering the docs' example product, its variant count set to `count`. */
function admin(count: number, collections: string[] = []) {
  const asked: Array<{ variants: unknown; media: boolean; cost: number; collections?: unknown }> = [];
  const documents: string[] = [];
  const client = {
    request: async (document: string, variables: Record<string, unknown>, cost: number) => {
      documents.push(document);
      asked.push({
        variants: variables.variants,
        media: document.includes('media(first'),
        cost,
        ...(variables.collections === undefined ? {} : { collections: variables.collections }),
      });
      const body = JSON.parse(readFileSync(fixture, 'utf8')) as {
        data: { product: Record<string, unknown> };
      };
      body.data.product.variantsCount = { count };
      const page = Number(variables.collections ?? 0);
      body.data.product.collections = {
        nodes: collections.slice(0, page).map((handle) => ({ handle })),
        pageInfo: { hasNextPage: collections.length > page },
      };
      body.data.product.category = null;
      return body.data;
    },
  } as unknown as ShopAdminClient;
  return { client, asked, documents };
}

describe('fetchCanonicalProduct', () => {
  it('asks for the variants last synced plus a few, and for the media only when needed', async () => {
    const { client, asked } = admin(2);
    const read = await fetchCanonicalProduct(client, '1', { expectedVariants: 2, media: false });
    expect(read.product?.variants).toHaveLength(2);
    expect(asked).toEqual([{ variants: 12, media: false, cost: 7 + 3 * 12 }]);
    expect(read.requestedCost).toBe(43);
    await fetchCanonicalProduct(client, '1', { expectedVariants: null, media: true });
    expect(asked[1]).toEqual({
      variants: FIRST_READ_VARIANTS,
      media: true,
      cost: 7 + 3 * FIRST_READ_VARIANTS + 202,
    });
  });

  it('reads again with a full page when the product has more variants than it asked for', async () => {
    const { client, asked } = admin(120);
    const read = await fetchCanonicalProduct(client, '1', { expectedVariants: null, media: false });
    expect(asked.map((a) => a.variants)).toEqual([FIRST_READ_VARIANTS, 250]);
    expect(read.requestedCost).toBe(7 + 3 * FIRST_READ_VARIANTS + 7 + 3 * 250);
  });

  it("asks for the mapping's sources, and reads again with 250 collections when the product is in more than 25", async () => {
    const sources = { ...NO_EXTRA_SOURCES, category: true, collections: true };
    const handles = Array.from({ length: 30 }, (_, i) => `c${i}`);
    const { client, asked, documents } = admin(2, handles);
    const read = await fetchCanonicalProduct(client, '1', { expectedVariants: 2, media: false, sources });
    expect(asked).toEqual([
      { variants: 12, media: false, collections: 25, cost: canonicalReadCost(12, false, sources, 25) },
      { variants: 12, media: false, collections: 250, cost: canonicalReadCost(12, false, sources, 250) },
    ]);
    expect(documents[0]).toContain('category {');
    expect(read.product?.collections).toEqual(handles);
    expect(read.product?.category).toBeNull();
    expect(read.requestedCost).toBe(7 + 36 + 1 + 27 + 7 + 36 + 1 + 252);
  });

  it('keeps a full read under 1,000 points: fewer variants per page with variant metafields, and refuses a product it cannot read whole', async () => {
    expect(fullVariantPage(true, NO_EXTRA_SOURCES)).toBe(250);
    const metafields = Array.from({ length: 2 }, (_, i) => ({ namespace: 'custom', key: `k${i}` }));
    const sources = { ...NO_EXTRA_SOURCES, variantMetafields: metafields };
    const page = fullVariantPage(true, sources);
    expect(page).toBe(Math.floor((1000 - 208) / 5));
    expect(canonicalReadCost(page, true, sources)).toBeLessThanOrEqual(1000);
    const { client } = admin(page + 1);
    await expect(
      fetchCanonicalProduct(client, '1', { expectedVariants: null, media: true, sources }),
    ).rejects.toThrow(`has ${page + 1} variants; with the mapping's 2 variant metafield(s) one read`);
  });
});
