import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ShopifySandboxHarness, startShopifySandbox } from '#testing/shopify-sandbox';
import { WebhookReceiver } from './webhook-receiver.js';

const variants = (n: number) =>
  Array.from({ length: n }, (_, i) => ({ option1: `V${i + 1}`, sku: `SKU-${i + 1}`, price: '1.00' }));

interface VariantPage {
  product: {
    variantsCount: { count: number };
    variants: { nodes: Array<{ sku: string }>; pageInfo: { hasNextPage: boolean; endCursor: string } };
  };
}

describe('products with up to 2,048 variants', () => {
  let h: ShopifySandboxHarness;
  let receiver: WebhookReceiver;
  let productGid: string;

  beforeAll(async () => {
    // A bigger single-query cost limit, so that the 2,000-variant page of one product fits.
    h = await startShopifySandbox({
      cost: { maxQueryCost: 5000, bucketSize: 100_000 },
      webhooks: { updateAfterCreate: false },
    });
    receiver = await WebhookReceiver.start(h.appSecret);
    await h.graphql(
      `mutation($uri: String!) { webhookSubscriptionCreate(topic: PRODUCTS_CREATE, webhookSubscription: { uri: $uri }) { userErrors { message } } }`,
      { uri: receiver.url },
    );
    const created = await h.merchant('POST', 'products.json', {
      product: { title: 'Many', options: [{ name: 'Size' }], variants: variants(2048) },
    });
    expect(created.status).toBe(201);
    expect((created.body.product as { variants: unknown[] }).variants).toHaveLength(2048);
    productGid = `gid://shopify/Product/${(created.body.product as { id: number }).id}`;
  });
  afterAll(async () => {
    await receiver.close();
    await h.close();
  });

  it('refuses a 2,049th variant on create', async () => {
    const refused = await h.merchant('POST', 'products.json', {
      product: { title: 'Too many', options: [{ name: 'Size' }], variants: variants(2049) },
    });
    expect(refused.status).toBe(422);
  });

  it('pages through every variant 250 at a time, with the cost of what each page asks', async () => {
    const skus: string[] = [];
    let after: string | null = null;
    for (let page = 0; page < 20; page++) {
      const reply: {
        data?: { products: { nodes: VariantPage['product'][] } };
        extensions: { cost: { requestedQueryCost: number } };
      } = await h.graphql(
        `query($after: String) { products(first: 1) { nodes { variantsCount { count }
            variants(first: 250, after: $after) { nodes { sku } pageInfo { hasNextPage endCursor } } } } }`,
        { after },
      );
      expect(reply.extensions.cost.requestedQueryCost).toBe(2 + 1 * (1 + 1 + 2 + 250 * 1));
      const product = reply.data?.products.nodes[0];
      if (!product) throw new Error('no product');
      expect(product.variantsCount.count).toBe(2048);
      skus.push(...product.variants.nodes.map((v) => v.sku));
      if (!product.variants.pageInfo.hasNextPage) break;
      after = product.variants.pageInfo.endCursor;
    }
    expect(skus).toHaveLength(2048);
    expect(new Set(skus).size).toBe(2048);
  });

  it('refuses more than 250 per page, except up to 2,000 in a query of one product alone', async () => {
    const tooMany = await h.graphql(
      `{ products(first: 1) { nodes { variants(first: 251) { nodes { id } } } } }`,
    );
    expect(tooMany.errors?.[0]).toMatchObject({
      message: 'The connection cannot request more than 250 records',
      path: ['products', 'nodes', 0, 'variants'],
    });
    const single = await h.graphql<VariantPage>(
      `query($id: ID!) { product(id: $id) { variants(first: 2000) { nodes { sku } } } }`,
      { id: productGid },
    );
    expect(single.errors).toBeUndefined();
    expect(single.data?.product.variants.nodes).toHaveLength(2000);
    const over = await h.graphql(
      `query($id: ID!) { product(id: $id) { variants(first: 2001) { nodes { sku } } } }`,
      {
        id: productGid,
      },
    );
    expect(over.errors?.[0].message).toBe('The connection cannot request more than 2000 records');
    const twoRoots = await h.graphql(
      `query($id: ID!) { product(id: $id) { variants(first: 300) { nodes { sku } } } shop { name } }`,
      { id: productGid },
    );
    expect(twoRoots.errors?.[0].message).toBe('The connection cannot request more than 250 records');
  });

  it('sends the first 100 variants in full in the webhook, every variant in variant_gids', async () => {
    const [webhook] = await receiver.waitFor(1);
    expect(webhook.validation.valid).toBe(true);
    expect(webhook.body.variants as unknown[]).toHaveLength(100);
    expect(webhook.body.variant_gids as unknown[]).toHaveLength(2048);
  });
});
