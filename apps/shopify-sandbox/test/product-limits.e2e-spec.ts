import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ShopifySandboxHarness, startShopifySandbox } from '#testing/shopify-sandbox';
import { NO_LENIENCY } from '../src/index.js';

const UPDATE = `mutation($p: ProductUpdateInput!) {
  productUpdate(product: $p) { product { title handle tags } userErrors { field message } }
}`;
const tags = (n: number, prefix = 't') => Array.from({ length: n }, (_, i) => `${prefix}${i}`);

interface UpdateReply {
  productUpdate: { product: { title: string; handle: string; tags: string[] } | null; userErrors: unknown[] };
}

describe('product limits: tags, title and handle', () => {
  let h: ShopifySandboxHarness;
  beforeAll(async () => {
    h = await startShopifySandbox();
  });
  afterAll(() => h.close());

  const create = async (product: Record<string, unknown>) => {
    const reply = await h.merchant('POST', 'products.json', { product });
    return reply;
  };
  const gid = (reply: { body: Record<string, unknown> }) =>
    (reply.body.product as { admin_graphql_api_id: string }).admin_graphql_api_id;

  it('productUpdate refuses 251 tags, a 256-character tag, title or handle, and changes nothing', async () => {
    const id = gid(await create({ title: 'Tagged', tags: 'a, b' }));
    const cases: Array<[Record<string, unknown>, unknown]> = [
      [
        { tags: tags(251) },
        {
          field: ['tags'],
          message: 'Tags cannot be added as the product already exceeds the new limit of 250 tags.',
        },
      ],
      [
        { tags: ['x'.repeat(256)] },
        { field: ['tags'], message: 'Tags is too long (maximum is 255 characters)' },
      ],
      [
        { title: 't'.repeat(256) },
        { field: ['title'], message: 'Title is too long (maximum is 255 characters)' },
      ],
      [
        { handle: 'h'.repeat(256) },
        { field: ['handle'], message: 'Handle is too long (maximum is 255 characters)' },
      ],
    ];
    for (const [change, error] of cases) {
      const reply = await h.graphql<UpdateReply>(UPDATE, { p: { id, ...change } });
      expect(reply.data?.productUpdate).toEqual({ product: null, userErrors: [error] });
    }
    const fine = await h.graphql<UpdateReply>(UPDATE, { p: { id, tags: tags(250), title: 't'.repeat(255) } });
    expect(fine.data?.productUpdate.userErrors).toEqual([]);
    expect(fine.data?.productUpdate.product?.tags).toHaveLength(250);
  });

  it('tagsAdd refuses to go past 250 tags', async () => {
    const id = gid(await create({ title: 'Nearly full', tags: tags(249).join(', ') }));
    const reply = await h.graphql<{ tagsAdd: { node: unknown; userErrors: unknown[] } }>(
      'mutation($id: ID!) { tagsAdd(id: $id, tags: ["one", "two"]) { node { id } userErrors { field message } } }',
      { id },
    );
    expect(reply.data?.tagsAdd).toEqual({
      node: null,
      userErrors: [
        {
          field: ['tags'],
          message: 'Tags cannot be added as the product already exceeds the new limit of 250 tags.',
        },
      ],
    });
    const ok = await h.graphql<{ tagsAdd: { userErrors: unknown[] } }>(
      'mutation($id: ID!) { tagsAdd(id: $id, tags: "one") { userErrors { message } } }',
      { id },
    );
    expect(ok.data?.tagsAdd.userErrors).toEqual([]);
  });

  it('productUpdate normalises a given handle and refuses one another product uses', async () => {
    await create({ title: 'Taken Handle' });
    const id = gid(await create({ title: 'Handle owner' }));
    const normalised = await h.graphql<UpdateReply>(UPDATE, { p: { id, handle: 'Summer Linen  Shirt!' } });
    expect(normalised.data?.productUpdate.product?.handle).toBe('summer-linen-shirt');
    const taken = await h.graphql<UpdateReply>(UPDATE, { p: { id, handle: 'taken-handle' } });
    expect(taken.data?.productUpdate).toEqual({
      product: null,
      userErrors: [
        { field: ['handle'], message: "Handle 'taken-handle' already in use. Please provide a new handle." },
      ],
    });
  });

  it('the merchant REST API applies the same limits, with REST field errors', async () => {
    expect(await create({ title: 'Too many', tags: tags(251) })).toEqual({
      status: 422,
      body: { errors: { tags: ['Tags cannot be more than 250.'] } },
    });
    expect(await create({ title: 'x'.repeat(256) })).toEqual({
      status: 422,
      body: { errors: { title: ['is too long (maximum is 255 characters)'] } },
    });
    const first = await create({ title: 'Rest Handle', handle: 'My Rest Handle' });
    expect((first.body.product as { handle: string }).handle).toBe('my-rest-handle');
    expect(await create({ title: 'Other', handle: 'my-rest-handle' })).toEqual({
      status: 422,
      body: { errors: { handle: ['has already been taken'] } },
    });
    // A handle built from the title is made unique, as on Shopify.
    const derived = await create({ title: 'My Rest Handle' });
    expect((derived.body.product as { handle: string }).handle).toBe('my-rest-handle-1');
    const numeric = gid(first).split('/').pop();
    const put = await h.merchant('PUT', `products/${numeric}.json`, { product: { tags: tags(251) } });
    expect(put).toEqual({
      status: 422,
      body: {
        errors: { tags: ['Tags cannot be added as the product already exceeds the new limit of 250 tags.'] },
      },
    });
  });
});

describe('product-limits leniency', () => {
  it('lets limits pass and suffixes a taken handle when a test asks for it by name', async () => {
    const h = await startShopifySandbox({ leniency: { ...NO_LENIENCY, productLimits: true } });
    try {
      const created = await h.merchant('POST', 'products.json', {
        product: { title: 'Lenient', tags: tags(300) },
      });
      expect(created.status).toBe(201);
      const again = await h.merchant('POST', 'products.json', {
        product: { title: 'Other', handle: 'lenient' },
      });
      expect((again.body.product as { handle: string }).handle).toBe('lenient-1');
    } finally {
      await h.close();
    }
  });
});
