import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '#lib/clock';
import { type ShopifySandboxHarness, startShopifySandbox } from '#testing/shopify-sandbox';

interface ProductsPage {
  products: {
    edges: Array<{ cursor: string; node: { id: string; title: string; updatedAt: string } }>;
    pageInfo: { hasNextPage: boolean; endCursor: string | null };
  };
}

const PAGE = `query Page($first: Int!, $after: String, $query: String) {
  products(first: $first, after: $after, query: $query, sortKey: UPDATED_AT) {
    edges { cursor node { id title updatedAt } }
    pageInfo { hasNextPage endCursor }
  }
}`;

describe('Admin GraphQL reads', () => {
  const clock = new ManualClock(Date.UTC(2026, 2, 1, 12));
  let h: ShopifySandboxHarness;
  let productGid: string;

  beforeAll(async () => {
    h = await startShopifySandbox({ clock });
    for (let i = 1; i <= 5; i++) {
      await h.merchant('POST', 'products.json', { product: { title: `Product ${i}` } });
      await clock.advance(60_000);
    }
    const created = await h.merchant('POST', 'products.json', {
      product: {
        title: 'Full',
        body_html: '<p>Soft <b>cotton</b></p>',
        metafields_global_title_tag: 'SEO title',
        options: [{ name: 'Size' }, { name: 'Colour' }],
        variants: [
          { option1: 'S', option2: 'Red', sku: 'F-S-R', barcode: '111', price: '20' },
          { option1: 'M', option2: 'Red', sku: 'F-M-R', price: '22' },
        ],
        images: [{ src: 'https://example.com/full.png', alt: 'front' }],
      },
    });
    productGid = (created.body.product as { admin_graphql_api_id: string }).admin_graphql_api_id;
  });
  afterAll(() => h.close());

  it('reads a product with variants, options, media and metafields', async () => {
    await h.graphql(
      `mutation($m: [MetafieldsSetInput!]!) { metafieldsSet(metafields: $m) { userErrors { message } } }`,
      {
        m: [
          {
            ownerId: productGid,
            namespace: 'custom',
            key: 'care',
            type: 'single_line_text_field',
            value: 'Wash cold',
          },
        ],
      },
    );
    const reply = await h.graphql<{ product: Record<string, unknown> }>(
      `query($id: ID!) {
        product(id: $id) {
          id legacyResourceId title descriptionHtml description status tags seo { title description }
          options { name position values }
          variants(first: 10) { nodes { id sku barcode price title selectedOptions { name value } inventoryItem { id } } }
          media(first: 5) { nodes { id alt mediaContentType ... on MediaImage { image { url width height } } } }
          metafield(namespace: "custom", key: "care") { value type compareDigest }
          metafields(first: 5) { nodes { namespace key value } }
        }
      }`,
      { id: productGid },
    );
    expect(reply.errors).toBeUndefined();
    const product = reply.data?.product;
    expect(product).toMatchObject({
      id: productGid,
      title: 'Full',
      description: 'Soft cotton',
      status: 'ACTIVE',
      seo: { title: 'SEO title', description: null },
      options: [
        { name: 'Size', position: 1, values: ['S', 'M'] },
        { name: 'Colour', position: 2, values: ['Red'] },
      ],
      variants: {
        nodes: [{ sku: 'F-S-R', barcode: '111', price: '20.00', title: 'S / Red' }, { sku: 'F-M-R' }],
      },
      media: { nodes: [{ alt: 'front', mediaContentType: 'IMAGE', image: { width: 64, height: 64 } }] },
      metafield: { value: 'Wash cold', type: 'single_line_text_field' },
      metafields: { nodes: [{ namespace: 'custom', key: 'care', value: 'Wash cold' }] },
    });
  });

  it('pages through products by cursor, filtered on updated_at', async () => {
    const seen: string[] = [];
    let after: string | null = null;
    for (;;) {
      const reply: { data?: ProductsPage } = await h.graphql<ProductsPage>(PAGE, {
        first: 2,
        after,
        query: "updated_at:>'2026-03-01T12:00:30Z'",
      });
      const page = reply.data?.products as ProductsPage['products'];
      seen.push(...page.edges.map((e) => e.node.title));
      if (!page.pageInfo.hasNextPage) break;
      after = page.pageInfo.endCursor;
    }
    expect(seen).toEqual(['Product 2', 'Product 3', 'Product 4', 'Product 5', 'Full']);
  });

  it('rejects a document the schema rejects, with Shopify-style errors and HTTP 200', async () => {
    const response = await fetch(`${h.adminUrl}/graphql.json`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'X-Shopify-Access-Token': h.accessToken },
      body: JSON.stringify({ query: '{ product(id: "gid://shopify/Product/1") { id colour } }' }),
    });
    expect(response.status).toBe(200);
    const body = (await response.json()) as { data?: unknown; errors: Array<Record<string, unknown>> };
    expect(body.data).toBeUndefined();
    expect(body.errors).toEqual([
      {
        message: "Field 'colour' doesn't exist on type 'Product'",
        locations: [{ line: 1, column: 47 }],
        path: ['query', 'product', 'colour'],
        extensions: { code: 'undefinedField', typeName: 'Product', fieldName: 'colour' },
      },
    ]);
  });

  it('rejects missing required arguments and wrong variable types', async () => {
    const unbounded = await h.graphql('{ products { nodes { id } } }');
    expect(unbounded.errors?.[0].message).toBe('you must provide one of first or last');
    expect((await h.graphql('{ product { id } }')).errors?.[0].extensions?.code).toBe(
      'missingRequiredArguments',
    );
    const wrongVariable = await h.graphql('query($id: ID!) { product(id: $id) { id } }', {
      id: { not: 'an id' },
    });
    expect(wrongVariable.errors).toEqual([
      {
        message: 'Variable $id of type ID! was provided invalid value',
        locations: [{ line: 1, column: 7 }],
        extensions: {
          value: { not: 'an id' },
          problems: [
            {
              path: [],
              explanation: 'Invalid global id `{"not":"an id"}`',
              message: 'Invalid global id `{"not":"an id"}`',
            },
          ],
        },
      },
    ]);
  });

  it('names an operation that has no resolver', async () => {
    const reply = await h.graphql('{ orders(first: 1) { nodes { id } } }');
    expect(reply.errors?.[0]).toMatchObject({
      message: "Field 'orders' is not implemented by shopify-sandbox",
      extensions: { code: 'NOT_IMPLEMENTED' },
    });
    const nested = await h.graphql(
      `query($id: ID!) { product(id: $id) { id sellingPlanGroups(first: 1) { nodes { id } } } }`,
      {
        id: productGid,
      },
    );
    expect(nested.errors?.[0].message).toBe(
      "Field 'Product.sellingPlanGroups' is not implemented by shopify-sandbox",
    );
  });

  it('answers 401 to a wrong or missing token', async () => {
    for (const headers of [{}, { 'X-Shopify-Access-Token': 'shpat_wrong' }]) {
      const response = await fetch(`${h.adminUrl}/graphql.json`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', ...headers },
        body: JSON.stringify({ query: '{ shop { name } }' }),
      });
      expect(response.status).toBe(401);
      expect(await response.json()).toEqual({
        errors: '[API] Invalid API key or access token (unrecognized login or wrong password)',
      });
    }
  });

  it('accepts a bare document as application/graphql, and answers 400 without a query', async () => {
    const post = (contentType: string, body: string) =>
      fetch(`${h.adminUrl}/graphql.json`, {
        method: 'POST',
        headers: { 'Content-Type': contentType, 'X-Shopify-Access-Token': h.accessToken },
        body,
      });
    const bare = await post('application/graphql', '{ shop { name } }');
    expect(((await bare.json()) as { data: unknown }).data).toEqual({ shop: { name: 'demo' } });
    const empty = await post('application/json', '{}');
    expect(empty.status).toBe(400);
    expect(await empty.json()).toEqual({ errors: { query: 'Required parameter missing or invalid' } });
  });

  it('serves introspection and the shop', async () => {
    const reply = await h.graphql<{ shop: Record<string, unknown>; __type: { name: string } }>(
      '{ shop { myshopifyDomain ianaTimezone timezoneOffset } __type(name: "Product") { name } }',
    );
    expect(reply.data).toEqual({
      shop: { myshopifyDomain: h.shopDomain, ianaTimezone: 'America/New_York', timezoneOffset: '-0500' },
      __type: { name: 'Product' },
    });
  });
});
