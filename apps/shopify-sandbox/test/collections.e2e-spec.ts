import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ShopifySandboxHarness, startShopifySandbox } from '#testing/shopify-sandbox';
import { WebhookReceiver } from './webhook-receiver.js';

const SUBSCRIBE = `mutation($topic: WebhookSubscriptionTopic!, $uri: String!) {
  webhookSubscriptionCreate(topic: $topic, webhookSubscription: { uri: $uri }) { userErrors { message } }
}`;

type Json = Record<string, unknown>;

describe('collections', () => {
  let h: ShopifySandboxHarness;
  let receiver: WebhookReceiver;

  beforeAll(async () => {
    // One delivery per write and no update after a create, so that deliveries can be counted.
    h = await startShopifySandbox({ webhooks: { mergeWindowMs: 0, updateAfterCreate: false } });
    receiver = await WebhookReceiver.start(h.appSecret);
    for (const topic of [
      'COLLECTIONS_CREATE',
      'COLLECTIONS_UPDATE',
      'COLLECTIONS_DELETE',
      'PRODUCTS_UPDATE',
    ]) {
      await h.graphql(SUBSCRIBE, { topic, uri: receiver.url });
    }
  });
  afterAll(async () => {
    await receiver.close();
    await h.close();
  });

  async function product(body: Json): Promise<{ id: number; updated_at: string }> {
    const created = await h.merchant('POST', 'products.json', { product: body });
    expect(created.status).toBe(201);
    return created.body.product as { id: number; updated_at: string };
  }

  it('creates a custom collection (201) in the REST shape and sends collections/create', async () => {
    const created = await h.merchant('POST', 'custom_collections.json', {
      custom_collection: { title: 'Checks' },
    });
    expect(created.status).toBe(201);
    const collection = created.body.custom_collection as Json;
    expect(collection).toMatchObject({
      title: 'Checks',
      handle: 'checks',
      sort_order: 'manual',
      published_scope: 'web',
      admin_graphql_api_id: `gid://shopify/Collection/${collection.id}`,
    });
    await h.sandbox.idle();
    const create = receiver.received.find(
      (w) => w.headers['x-shopify-topic'] === 'collections/create' && w.body.id === collection.id,
    );
    expect(create?.validation.valid).toBe(true);
    expect(create?.body).toEqual(collection);
    const blank = await h.merchant('POST', 'custom_collections.json', { custom_collection: { title: ' ' } });
    expect(blank).toEqual({ status: 422, body: { errors: { title: ["can't be blank"] } } });
  });

  it('adds a product with a collect: collections/update fires, the product and its updated_at do not change', async () => {
    const shirt = await product({ title: 'Linen Shirt' });
    const collection = (
      await h.merchant('POST', 'custom_collections.json', { custom_collection: { title: 'Summer' } })
    ).body.custom_collection as { id: number; updated_at: string };
    await h.sandbox.idle();
    const before = receiver.received.length;
    const added = await h.merchant('POST', 'collects.json', {
      collect: { product_id: shirt.id, collection_id: collection.id },
    });
    expect(added.status).toBe(201);
    expect(added.body.collect).toMatchObject({
      product_id: shirt.id,
      collection_id: collection.id,
      position: 1,
    });
    await h.sandbox.idle();
    const after = receiver.received.slice(before).map((w) => w.headers['x-shopify-topic']);
    expect(after).toEqual(['collections/update']);
    const again = await h.merchant('POST', 'collects.json', {
      collect: { product_id: shirt.id, collection_id: collection.id },
    });
    expect(again).toEqual({
      status: 422,
      body: { errors: { product_id: ['already exists in this collection'] } },
    });
    const read = await h.merchant('GET', `products/${shirt.id}.json`);
    expect((read.body.product as Json).updated_at).toBe(shirt.updated_at);

    const graphql = await h.graphql<{
      product: { collections: { nodes: Array<{ id: string; title: string }> } };
      products: { nodes: Array<{ id: string }> };
      collection: { productsCount: { count: number }; products: { nodes: Array<{ title: string }> } };
    }>(
      `query($p: ID!, $c: ID!, $q: String) {
        product(id: $p) { collections(first: 5) { nodes { id title } } }
        products(first: 10, query: $q) { nodes { id } }
        collection(id: $c) { productsCount { count } products(first: 5) { nodes { title } } }
      }`,
      {
        p: `gid://shopify/Product/${shirt.id}`,
        c: `gid://shopify/Collection/${collection.id}`,
        q: `collection_id:${collection.id}`,
      },
    );
    expect(graphql.errors).toBeUndefined();
    expect(graphql.data?.product.collections.nodes).toEqual([
      { id: `gid://shopify/Collection/${collection.id}`, title: 'Summer' },
    ]);
    expect(graphql.data?.products.nodes).toEqual([{ id: `gid://shopify/Product/${shirt.id}` }]);
    expect(graphql.data?.collection).toEqual({
      productsCount: { count: 1 },
      products: { nodes: [{ title: 'Linen Shirt' }] },
    });

    const collects = await h.merchant('GET', `collects.json?collection_id=${collection.id}`);
    const collectId = (collects.body.collects as Array<{ id: number }>)[0].id;
    const mark = receiver.received.length;
    expect((await h.merchant('DELETE', `collects/${collectId}.json`)).status).toBe(200);
    await h.sandbox.idle();
    expect(receiver.received.slice(mark).map((w) => w.headers['x-shopify-topic'])).toEqual([
      'collections/update',
    ]);
    const empty = await h.graphql<{ product: { collections: { nodes: unknown[] } } }>(
      `query($p: ID!) { product(id: $p) { collections(first: 5) { nodes { id } } } }`,
      { p: `gid://shopify/Product/${shirt.id}` },
    );
    expect(empty.data?.product.collections.nodes).toEqual([]);
  });

  it('fills a smart collection by its rules on tag, vendor and product type, all or any', async () => {
    const a = await product({
      title: 'Wool Hat',
      vendor: 'Acme',
      product_type: 'Hats',
      tags: 'winter, wool',
    });
    const b = await product({ title: 'Straw Hat', vendor: 'Sunny', product_type: 'Hats', tags: 'summer' });
    const c = await product({ title: 'Wool Socks', vendor: 'Acme', product_type: 'Socks', tags: 'Winter' });
    const smart = async (body: Json) => {
      const created = await h.merchant('POST', 'smart_collections.json', { smart_collection: body });
      expect(created.status).toBe(201);
      return created.body.smart_collection as { id: number };
    };
    const members = async (id: number) => {
      const reply = await h.graphql<{ collection: { products: { nodes: Array<{ id: string }> } } }>(
        `query($c: ID!) { collection(id: $c) { products(first: 50) { nodes { id } } } }`,
        { c: `gid://shopify/Collection/${id}` },
      );
      return reply.data?.collection.products.nodes.map((n) => Number(n.id.split('/').pop())) ?? [];
    };
    const all = await smart({
      title: 'Acme winter',
      rules: [
        { column: 'vendor', relation: 'equals', condition: 'Acme' },
        { column: 'tag', relation: 'equals', condition: 'winter' },
      ],
    });
    expect(await members(all.id)).toEqual([a.id, c.id]);
    const any = await smart({
      title: 'Hats or summer',
      disjunctive: true,
      rules: [
        { column: 'type', relation: 'equals', condition: 'Hats' },
        { column: 'tag', relation: 'starts_with', condition: 'sum' },
      ],
    });
    expect(await members(any.id)).toEqual([a.id, b.id]);
    const notWool = await smart({
      title: 'No wool',
      rules: [
        { column: 'title', relation: 'not_contains', condition: 'wool' },
        { column: 'vendor', relation: 'ends_with', condition: 'NNY' },
      ],
    });
    expect(await members(notWool.id)).toEqual([b.id]);
    const listed = await h.merchant('GET', `smart_collections.json?product_id=${b.id}`);
    expect((listed.body.smart_collections as Array<{ id: number }>).map((s) => s.id)).toEqual([
      any.id,
      notWool.id,
    ]);
    const bad = await h.merchant('POST', 'smart_collections.json', {
      smart_collection: { title: 'Bad', rules: [{ column: 'colour', relation: 'equals', condition: 'x' }] },
    });
    expect(bad).toEqual({ status: 422, body: { errors: { rules: ['column is not included in the list'] } } });
    const added = await h.merchant('POST', 'collects.json', {
      collect: { product_id: a.id, collection_id: all.id },
    });
    expect(added.status).toBe(422);
  });

  it('updates and deletes, with collections/update and collections/delete', async () => {
    const created = (
      await h.merchant('POST', 'custom_collections.json', { custom_collection: { title: 'Old' } })
    ).body.custom_collection as { id: number };
    await h.sandbox.idle();
    const mark = receiver.received.length;
    const updated = await h.merchant('PUT', `custom_collections/${created.id}.json`, {
      custom_collection: { id: created.id, title: 'New', body_html: '<p>x</p>' },
    });
    expect(updated.body.custom_collection).toMatchObject({ title: 'New', body_html: '<p>x</p>' });
    expect((await h.merchant('DELETE', `custom_collections/${created.id}.json`)).status).toBe(200);
    await h.sandbox.idle();
    const topics = receiver.received.slice(mark).map((w) => [w.headers['x-shopify-topic'], w.body.id]);
    expect(topics).toEqual([
      ['collections/update', created.id],
      ['collections/delete', created.id],
    ]);
    expect(receiver.received.at(-1)?.body).toEqual({
      id: created.id,
      published_scope: 'web',
      admin_graphql_api_id: `gid://shopify/Collection/${created.id}`,
    });
    expect((await h.merchant('GET', `custom_collections/${created.id}.json`)).status).toBe(404);

    const narrow = await WebhookReceiver.start(h.appSecret);
    await h.graphql(
      `mutation($uri: String!) { webhookSubscriptionCreate(topic: COLLECTIONS_CREATE, webhookSubscription: { uri: $uri, includeFields: ["id", "title"] }) { userErrors { message } } }`,
      { uri: narrow.url },
    );
    const small = (
      await h.merchant('POST', 'custom_collections.json', { custom_collection: { title: 'Small' } })
    ).body.custom_collection as { id: number };
    const [narrowed] = await narrow.waitFor(1);
    expect(narrowed.body).toEqual({ id: small.id, title: 'Small' });
    await narrow.close();
    const twin = await h.merchant('POST', 'custom_collections.json', {
      custom_collection: { title: 'Checks' },
    });
    expect((twin.body.custom_collection as { handle: string }).handle).toBe('checks-1');
    const kinds = await h.graphql<{
      smart: { nodes: unknown[] };
      custom: { nodes: unknown[] };
      byId: { title: string };
    }>(
      `query($id: ID!) { smart: collections(first: 50, query: "collection_type:smart") { nodes { id } }
        custom: collections(first: 50, query: "collection_type:custom") { nodes { id } }
        byId: collectionByIdentifier(identifier: { id: $id }) { title } }`,
      { id: `gid://shopify/Collection/${small.id}` },
    );
    expect(kinds.data?.byId).toEqual({ title: 'Small' });
    const all = (await h.merchant('GET', 'custom_collections.json')).body.custom_collections as unknown[];
    expect(kinds.data?.custom.nodes).toHaveLength(all.length);
    expect(kinds.data?.smart.nodes).toHaveLength(
      ((await h.merchant('GET', 'smart_collections.json')).body.smart_collections as unknown[]).length,
    );
    const byHandle = await h.graphql<{
      collectionByHandle: unknown;
      collections: { nodes: Array<{ title: string }> };
    }>(
      `{ collectionByHandle(handle: "checks") { title } collections(first: 5, query: "title:Checks") { nodes { title } } }`,
    );
    expect(byHandle.data).toEqual({
      collectionByHandle: { title: 'Checks' },
      collections: { nodes: [{ title: 'Checks' }, { title: 'Checks' }] },
    });
  });
});
