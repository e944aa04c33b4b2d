import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ShopifySandboxHarness, startShopifySandbox } from '#testing/shopify-sandbox';
import { NO_LENIENCY } from '../src/index.js';

describe('an ID that is not a global id of the expected type fails the whole request', () => {
  let h: ShopifySandboxHarness;
  let productId: string;
  let variantId: string;
  beforeAll(async () => {
    h = await startShopifySandbox();
    const created = await h.merchant('POST', 'products.json', {
      product: { title: 'Gid target', tags: 'kept' },
    });
    const product = created.body.product as {
      admin_graphql_api_id: string;
      variants: Array<{ admin_graphql_api_id: string }>;
    };
    productId = product.admin_graphql_api_id;
    variantId = product.variants[0].admin_graphql_api_id;
  });
  afterAll(() => h.close());

  it('as a literal: errors only, no data, HTTP 200', async () => {
    const response = await fetch(`${h.adminUrl}/graphql.json`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'X-Shopify-Access-Token': h.accessToken },
      body: JSON.stringify({ query: '{ product(id: "123") { id } }' }),
    });
    expect(response.status).toBe(200);
    const body = (await response.json()) as Record<string, unknown>;
    expect(body.data).toBeUndefined();
    expect(body.errors).toEqual([
      {
        message: 'Invalid global id `123`',
        locations: [{ line: 1, column: 3 }],
        path: ['query', 'product', 'id'],
        extensions: { code: 'argumentLiteralsIncompatible', typeName: 'CoercionError' },
      },
    ]);
  });

  it('as a variable: graphql-ruby’s variable error, naming the problem', async () => {
    const reply = await h.graphql('query($id: ID!) { productVariant(id: $id) { id } }', { id: productId });
    expect(reply.data).toBeUndefined();
    expect(reply.errors).toEqual([
      {
        message: 'Variable $id of type ID! was provided invalid value',
        locations: [{ line: 1, column: 7 }],
        extensions: {
          value: productId,
          problems: [
            {
              path: [],
              explanation: `Invalid global id \`${productId}\``,
              message: `Invalid global id \`${productId}\``,
            },
          ],
        },
      },
    ]);
  });

  it('before any mutation runs: nothing changes', async () => {
    const tags = await h.graphql(
      'mutation($id: ID!) { tagsAdd(id: $id, tags: ["new"]) { userErrors { message } } }',
      {
        id: '123',
      },
    );
    expect(tags.errors?.[0].message).toBe('Variable $id of type ID! was provided invalid value');
    const update = await h.graphql(
      'mutation($p: ProductUpdateInput!) { productUpdate(product: $p) { userErrors { message } } }',
      { p: { id: variantId, title: 'Wrong target' } },
    );
    expect(update.errors?.[0].message).toBe(
      `Variable $p of type ProductUpdateInput! was provided invalid value for id (Invalid global id \`${variantId}\`)`,
    );
    const metafields = await h.graphql(
      'mutation($m: [MetafieldsSetInput!]!) { metafieldsSet(metafields: $m) { userErrors { message } } }',
      {
        m: [
          {
            ownerId: 'not-a-gid',
            namespace: 'custom',
            key: 'ab',
            type: 'single_line_text_field',
            value: 'x',
          },
        ],
      },
    );
    expect(metafields.errors?.[0].extensions?.problems).toEqual([
      {
        path: [0, 'ownerId'],
        explanation: 'Invalid global id `not-a-gid`',
        message: 'Invalid global id `not-a-gid`',
      },
    ]);
    const numeric = productId.split('/').pop();
    const product = (await h.merchant('GET', `products/${numeric}.json`)).body.product as Record<
      string,
      unknown
    >;
    expect(product).toMatchObject({ title: 'Gid target', tags: 'kept' });
    const log = await h.control('GET', `shops/${h.shopDomain}/admin-requests?operationType=mutation`);
    expect((log.body.requests as Array<{ outcome: string }>).map((r) => r.outcome)).toEqual([
      'rejected',
      'rejected',
      'rejected',
    ]);
  });

  it('a gid of any type is fine where the argument takes any node', async () => {
    const reply = await h.graphql<{ nodes: Array<{ id: string } | null> }>(
      'query($ids: [ID!]!) { nodes(ids: $ids) { id } }',
      { ids: [productId, variantId, 'gid://shopify/Collection/1'] },
    );
    expect(reply.errors).toBeUndefined();
    expect(reply.data?.nodes).toEqual([{ id: productId }, { id: variantId }, null]);
  });
});

describe('global-ids leniency', () => {
  it('reads a bad id as "not found", as the sandbox used to, when a test asks for it by name', async () => {
    const h = await startShopifySandbox({ leniency: { ...NO_LENIENCY, globalIds: true } });
    try {
      const read = await h.graphql<{ product: null }>('{ product(id: "123") { id } }');
      expect(read).toMatchObject({ data: { product: null } });
      expect(read.errors).toBeUndefined();
      const update = await h.graphql<{ productUpdate: unknown }>(
        'mutation { productUpdate(product: { id: "gid://shopify/ProductVariant/1", title: "x" }) { userErrors { field message } } }',
      );
      expect(update.data?.productUpdate).toEqual({
        userErrors: [{ field: ['id'], message: 'Product does not exist' }],
      });
    } finally {
      await h.close();
    }
  });
});
