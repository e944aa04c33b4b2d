import '@shopify/shopify-api/adapters/node';
import { ApiVersion, Session, shopifyApi } from '@shopify/shopify-api';
import { setAbstractFetchFunc } from '@shopify/shopify-api/runtime';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ShopifySandboxHarness, startShopifySandbox } from '#testing/shopify-sandbox';
import { sandboxFetch } from '../src/index.js';

// Connector code uses Shopify's own client; it must work against the sandbox unchanged.
describe("@shopify/shopify-api's GraphQL client against the sandbox", () => {
  let h: ShopifySandboxHarness;
  beforeAll(async () => {
    h = await startShopifySandbox();
    setAbstractFetchFunc(sandboxFetch(h.url));
  });
  afterAll(async () => {
    setAbstractFetchFunc(globalThis.fetch);
    await h.close();
  });

  const client = (accessToken: string) => {
    const shopify = shopifyApi({
      apiSecretKey: h.appSecret,
      adminApiAccessToken: accessToken,
      isCustomStoreApp: true,
      isEmbeddedApp: false,
      hostName: 'connector.example.com',
      apiVersion: ApiVersion.July26,
      logger: { level: 0, log: async () => {} },
    });
    const session = new Session({ id: 'offline', shop: h.shopDomain, state: '', isOnline: false });
    return new shopify.clients.Graphql({ session });
  };

  it('reads and writes through the official client', async () => {
    const created = await h.merchant('POST', 'products.json', { product: { title: 'Via client' } });
    const id = (created.body.product as { admin_graphql_api_id: string }).admin_graphql_api_id;
    const graphql = client(h.accessToken);
    const updated = await graphql.request<{ productUpdate: { product: { title: string } } }>(
      `mutation($product: ProductUpdateInput!) { productUpdate(product: $product) { product { title } userErrors { message } } }`,
      { variables: { product: { id, title: 'Renamed via client' } } },
    );
    expect(updated.data?.productUpdate.product.title).toBe('Renamed via client');
    // 10 for the mutation, 1 for `product`, 1 for `userErrors`.
    expect(updated.extensions?.cost).toMatchObject({ requestedQueryCost: 12, actualQueryCost: 12 });
    const read = await graphql.request<{ product: { title: string } }>(
      'query($id: ID!) { product(id: $id) { title } }',
      {
        variables: { id },
      },
    );
    expect(read.data?.product.title).toBe('Renamed via client');
  });

  it('surfaces schema validation errors and a wrong token as the client does with Shopify', async () => {
    const invalid = client(h.accessToken).request('{ shop { colour } }');
    await expect(invalid).rejects.toThrow(/Field 'colour' doesn't exist on type 'Shop'/);
    const unauthorized = client('shpat_wrong').request('{ shop { name } }');
    await expect(unauthorized).rejects.toThrow(/401|Unauthorized|Invalid API key/);
  });
});
