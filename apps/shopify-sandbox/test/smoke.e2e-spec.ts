import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ShopifySandboxHarness, startShopifySandbox } from './harness.js';

describe('shopify-sandbox boots', () => {
  let h: ShopifySandboxHarness;
  beforeAll(async () => {
    h = await startShopifySandbox();
  });
  afterAll(() => h.close());

  it('creates a product and reads it through GraphQL', async () => {
    const created = await h.merchant('POST', 'products.json', {
      product: {
        title: 'Blue Shirt',
        options: [{ name: 'Size' }],
        variants: [
          { option1: 'S', sku: 'S1', price: '10' },
          { option1: 'M', sku: 'M1', price: 12.5 },
        ],
        images: [{ src: 'https://example.com/a.jpg' }],
      },
    });
    expect(created.status).toBe(201);
    const id = (created.body.product as { admin_graphql_api_id: string }).admin_graphql_api_id;
    const read = await h.graphql(
      `query($id: ID!) { product(id: $id) { id title tags variants(first: 10) { nodes { id sku price selectedOptions { name value } } } media(first: 5) { nodes { ... on MediaImage { image { url } } } } } }`,
      { id },
    );
    expect(read.errors).toBeUndefined();
  });
});
