import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type ShopifySandboxHarness, startShopifySandbox } from '#testing/shopify-sandbox';
import { WebhookReceiver } from './webhook-receiver.js';

interface AdminRequest {
  api: string;
  operationType: string | null;
  rootFields: string[];
}

describe('Admin GraphQL writes change the store and fire products/update', () => {
  let h: ShopifySandboxHarness;
  let receiver: WebhookReceiver;
  let productId: string;
  let variantIds: string[];

  beforeAll(async () => {
    // One delivery per mutation, asked for by name: these tests count deliveries per write. The
    // products/update that follows each create (the default) is settled in beforeEach.
    h = await startShopifySandbox({ webhooks: { mergeWindowMs: 0 } });
    receiver = await WebhookReceiver.start(h.appSecret);
    await h.graphql(
      `mutation($uri: String!) { webhookSubscriptionCreate(topic: PRODUCTS_UPDATE, webhookSubscription: { uri: $uri }) { userErrors { message } } }`,
      { uri: receiver.url },
    );
  });
  afterAll(async () => {
    await receiver.close();
    await h.close();
  });
  beforeEach(async () => {
    const created = await h.merchant('POST', 'products.json', {
      product: {
        title: 'Plain Tee',
        tags: 'cotton',
        options: [{ name: 'Size' }],
        variants: [
          { option1: 'S', sku: 'TEE-S', price: '10' },
          { option1: 'M', sku: 'TEE-M', price: '10' },
        ],
      },
    });
    const product = created.body.product as {
      admin_graphql_api_id: string;
      variants: Array<{ admin_graphql_api_id: string }>;
    };
    productId = product.admin_graphql_api_id;
    variantIds = product.variants.map((v) => v.admin_graphql_api_id);
    await h.sandbox.idle();
    receiver.received.length = 0;
  });

  const restProduct = async () => {
    const numeric = productId.split('/').pop();
    return (await h.merchant('GET', `products/${numeric}.json`)).body.product as Record<string, unknown>;
  };

  it('productUpdate sets title, descriptionHtml and seo', async () => {
    const reply = await h.graphql<{
      productUpdate: { product: Record<string, unknown>; userErrors: unknown[] };
    }>(
      `mutation($product: ProductUpdateInput!) {
        productUpdate(product: $product) { product { title descriptionHtml seo { title description } } userErrors { field message } }
      }`,
      {
        product: {
          id: productId,
          title: 'Organic Tee',
          descriptionHtml: '<p>Organic</p>',
          seo: { title: 'Tee', description: 'Soft' },
        },
      },
    );
    expect(reply.data?.productUpdate).toEqual({
      product: {
        title: 'Organic Tee',
        descriptionHtml: '<p>Organic</p>',
        seo: { title: 'Tee', description: 'Soft' },
      },
      userErrors: [],
    });
    // A mutation costs 10 plus its selection: product, seo and userErrors are objects (1 each).
    expect(reply.extensions.cost).toMatchObject({ requestedQueryCost: 13, actualQueryCost: 13 });
    const [webhook] = await receiver.waitFor(1);
    expect(webhook.body).toMatchObject({ title: 'Organic Tee', body_html: '<p>Organic</p>' });
    expect(await restProduct()).toMatchObject({ title: 'Organic Tee' });
  });

  it('productUpdate reports an unknown product in userErrors', async () => {
    const reply = await h.graphql<{ productUpdate: unknown }>(
      'mutation { productUpdate(product: { id: "gid://shopify/Product/1", title: "X" }) { product { id } userErrors { field message } } }',
    );
    expect(reply.data?.productUpdate).toEqual({
      product: null,
      userErrors: [{ field: ['id'], message: 'Product does not exist' }],
    });
  });

  it('tagsAdd and tagsRemove', async () => {
    await h.graphql(
      'mutation($id: ID!) { tagsAdd(id: $id, tags: ["enriched", "eco"]) { userErrors { message } } }',
      { id: productId },
    );
    const removed = await h.graphql<{ tagsRemove: { node: { tags: string[] } } }>(
      'mutation($id: ID!) { tagsRemove(id: $id, tags: ["cotton"]) { node { ... on Product { tags } } userErrors { message } } }',
      { id: productId },
    );
    expect(removed.data?.tagsRemove.node.tags).toEqual(['eco', 'enriched']);
    const [added, afterRemove] = await receiver.waitFor(2);
    expect(added.body.tags).toBe('cotton, eco, enriched');
    expect(afterRemove.body.tags).toBe('eco, enriched');
  });

  it('metafieldsSet honours compareDigest and the limit of 25', async () => {
    const SET = `mutation($m: [MetafieldsSetInput!]!) {
      metafieldsSet(metafields: $m) { metafields { key value compareDigest } userErrors { field message code elementIndex } }
    }`;
    type SetReply = {
      metafieldsSet: {
        metafields: Array<{ compareDigest: string; value: string }> | null;
        userErrors: Array<{ code: string }>;
      };
    };
    const base = {
      ownerId: productId,
      namespace: 'enrichment',
      key: 'material',
      type: 'single_line_text_field',
    };
    const first = await h.graphql<SetReply>(SET, { m: [{ ...base, value: 'cotton', compareDigest: null }] });
    const digest = first.data?.metafieldsSet.metafields?.[0].compareDigest as string;
    const second = await h.graphql<SetReply>(SET, {
      m: [{ ...base, value: 'organic cotton', compareDigest: digest }],
    });
    expect(second.data?.metafieldsSet.userErrors).toEqual([]);
    const stale = await h.graphql<SetReply>(SET, {
      m: [{ ...base, value: 'polyester', compareDigest: digest }],
    });
    expect(stale.data?.metafieldsSet.metafields).toBeNull();
    expect(stale.data?.metafieldsSet.userErrors[0]).toMatchObject({
      code: 'STALE_OBJECT',
      field: ['metafields', '0', 'compareDigest'],
    });
    const tooMany = Array.from({ length: 26 }, (_, i) => ({ ...base, key: `k${i}`, value: 'x' }));
    const limited = await h.graphql<SetReply>(SET, { m: tooMany });
    expect(limited.data?.metafieldsSet.userErrors[0]).toMatchObject({ code: 'LESS_THAN_OR_EQUAL_TO' });
    const variantMetafield = await h.graphql<SetReply>(SET, {
      m: [
        {
          ownerId: variantIds[0],
          namespace: 'enrichment',
          key: 'fit',
          type: 'single_line_text_field',
          value: 'slim',
        },
      ],
    });
    expect(variantMetafield.data?.metafieldsSet.userErrors).toEqual([]);
    const read = await h.graphql<{
      product: {
        metafield: { value: string };
        variants: { nodes: Array<{ metafield: { value: string } | null }> };
      };
    }>(
      `query($id: ID!) { product(id: $id) {
        metafield(namespace: "enrichment", key: "material") { value }
        variants(first: 5) { nodes { metafield(namespace: "enrichment", key: "fit") { value } } }
      } }`,
      { id: productId },
    );
    expect(read.data?.product.metafield.value).toBe('organic cotton');
    expect(read.data?.product.variants.nodes[0].metafield?.value).toBe('slim');
    await receiver.waitFor(3);
  });

  it('productVariantsBulkUpdate changes variants and fires one products/update', async () => {
    const reply = await h.graphql<{
      productVariantsBulkUpdate: { productVariants: unknown[]; userErrors: unknown[] };
    }>(
      `mutation($productId: ID!, $variants: [ProductVariantsBulkInput!]!) {
        productVariantsBulkUpdate(productId: $productId, variants: $variants) {
          productVariants { sku barcode price } userErrors { field message code }
        }
      }`,
      {
        productId,
        variants: [
          { id: variantIds[0], price: '12.5', barcode: '5012345678900', inventoryItem: { sku: 'TEE-S2' } },
          { id: variantIds[1], compareAtPrice: '15' },
        ],
      },
    );
    expect(reply.data?.productVariantsBulkUpdate.userErrors).toEqual([]);
    expect(reply.data?.productVariantsBulkUpdate.productVariants[0]).toEqual({
      sku: 'TEE-S2',
      barcode: '5012345678900',
      price: '12.50',
    });
    const [webhook] = await receiver.waitFor(1);
    expect(webhook.body.variants).toMatchObject([
      { sku: 'TEE-S2', price: '12.50' },
      { compare_at_price: '15.00' },
    ]);
    await h.sandbox.idle();
    expect(receiver.received).toHaveLength(1);
  });

  it('productVariantsBulkUpdate refuses a variant of another product, atomically', async () => {
    const reply = await h.graphql<{
      productVariantsBulkUpdate: { product: null; userErrors: Array<{ code: string }> };
    }>(
      `mutation($productId: ID!, $variants: [ProductVariantsBulkInput!]!) {
        productVariantsBulkUpdate(productId: $productId, variants: $variants) { product { id } userErrors { field message code } }
      }`,
      {
        productId,
        variants: [
          { id: variantIds[0], price: '1' },
          { id: 'gid://shopify/ProductVariant/1', price: '2' },
        ],
      },
    );
    expect(reply.data?.productVariantsBulkUpdate.userErrors[0].code).toBe('PRODUCT_VARIANT_DOES_NOT_EXIST');
    expect((await restProduct()).variants).toMatchObject([{ price: '10.00' }, { price: '10.00' }]);
  });

  it('logs Admin API requests, so tests can count mutations', async () => {
    await h.control('DELETE', `shops/${h.shopDomain}/admin-requests`);
    await h.graphql('mutation($id: ID!) { tagsAdd(id: $id, tags: ["a"]) { userErrors { message } } }', {
      id: productId,
    });
    await h.graphql('query($id: ID!) { product(id: $id) { id } }', { id: productId });
    const mutations = await h.control(
      'GET',
      `shops/${h.shopDomain}/admin-requests?api=graphql&operationType=mutation`,
    );
    expect(mutations.body.requests as AdminRequest[]).toMatchObject([
      { operationType: 'mutation', rootFields: ['tagsAdd'] },
    ]);
    const all = await h.control('GET', `shops/${h.shopDomain}/admin-requests`);
    expect((all.body.requests as AdminRequest[]).map((r) => r.operationType)).toEqual(['mutation', 'query']);
  });

  it('manages webhook subscriptions through GraphQL', async () => {
    const list = await h.graphql<{
      webhookSubscriptions: { nodes: Array<{ id: string; topic: string; uri: string }> };
    }>('{ webhookSubscriptions(first: 10) { nodes { id topic uri } } }');
    const [subscription] = list.data?.webhookSubscriptions.nodes ?? [];
    expect(subscription).toMatchObject({ topic: 'PRODUCTS_UPDATE', uri: receiver.url });
    const duplicate = await h.graphql<{
      webhookSubscriptionCreate: { userErrors: Array<{ message: string }> };
    }>(
      'mutation($uri: String!) { webhookSubscriptionCreate(topic: PRODUCTS_UPDATE, webhookSubscription: { uri: $uri }) { userErrors { message } } }',
      { uri: receiver.url },
    );
    expect(duplicate.data?.webhookSubscriptionCreate.userErrors[0].message).toBe(
      'Address for this topic has already been taken',
    );
    const deleted = await h.graphql<{ webhookSubscriptionDelete: { deletedWebhookSubscriptionId: string } }>(
      'mutation($id: ID!) { webhookSubscriptionDelete(id: $id) { deletedWebhookSubscriptionId userErrors { message } } }',
      { id: subscription.id },
    );
    expect(deleted.data?.webhookSubscriptionDelete.deletedWebhookSubscriptionId).toBe(subscription.id);
    await h.graphql('mutation($id: ID!) { tagsAdd(id: $id, tags: ["quiet"]) { userErrors { message } } }', {
      id: productId,
    });
    await h.sandbox.idle();
    expect(receiver.received).toHaveLength(0);
  });
});
