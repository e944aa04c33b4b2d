import { afterAll, beforeAll, describe, expect, it } from 'vitest';
// The Shopify sandbox's test harness, by path until it has a `#testing/shopify-sandbox` alias (tests only).
import { type ShopifySandboxHarness, startShopifySandbox } from '#testing/shopify-sandbox';
import { demoMapping, SHOP } from '../../../test/support/sync-plan-inputs.js';
import { planSync } from '../../product-sync/plan/plan-sync.js';
import { isSimpleProduct } from './canonical-product.js';
import { readCanonicalProduct } from './canonical-product.reader.js';
import {
  CANONICAL_PRODUCT_NO_MEDIA_QUERY,
  CANONICAL_PRODUCT_QUERY,
  type CanonicalSources,
  canonicalProductDocument,
  canonicalReadCost,
  NO_EXTRA_SOURCES,
} from './documents/canonical-product.query.js';
import { fetchCanonicalProduct } from './fetch-canonical-product.js';
import type { ShopAdminClient } from './shop-admin.client.js';

const RICH: CanonicalSources = {
  productMetafields: [
    { namespace: 'custom', key: 'material' },
    { namespace: 'custom', key: 'occasions' },
  ],
  variantMetafields: [
    { namespace: 'custom', key: 'weight_grams' },
    { namespace: 'custom', key: 'absent' },
  ],
  category: true,
  collections: true,
};

/** The canonical read as the Shopify sandbox answers it (real 2026-07 schema), into the planner. */
describe('canonical product read against the Shopify sandbox', () => {
  let h: ShopifySandboxHarness;

  beforeAll(async () => {
    // A bucket for several full reads in a row (the large product's pages): the costs are what is checked.
    h = await startShopifySandbox({ cost: { bucketSize: 20_000 } });
  });
  afterAll(() => h.close());

  async function create(body: Record<string, unknown>) {
    const created = await h.merchant('POST', 'products.json', { product: body });
    expect(created.status).toBe(201);
    return (created.body.product as { admin_graphql_api_id: string }).admin_graphql_api_id;
  }

  async function read(id: string) {
    const reply = await h.graphql(CANONICAL_PRODUCT_QUERY, { id });
    expect(reply.errors).toBeUndefined();
    expect(reply.extensions.cost.requestedQueryCost).toBeLessThanOrEqual(1000);
    return readCanonicalProduct(reply.data);
  }

  async function readExisting(id: string) {
    const product = await read(id);
    if (!product) throw new Error(`product ${id} not found`);
    return product;
  }

  it('asks Shopify for the cost canonicalReadCost says, for any number of variants, with and without media', async () => {
    const id = await create({ title: 'Costed', variants: [{ sku: 'C-1', price: '1.00' }] });
    for (const variants of [1, 10, 60, 250]) {
      for (const media of [true, false]) {
        const reply = await h.graphql(media ? CANONICAL_PRODUCT_QUERY : CANONICAL_PRODUCT_NO_MEDIA_QUERY, {
          id,
          variants,
        });
        expect(reply.errors).toBeUndefined();
        expect({ variants, media, cost: reply.extensions.cost.requestedQueryCost }).toEqual({
          variants,
          media,
          cost: canonicalReadCost(variants, media),
        });
      }
    }
    expect(canonicalReadCost(250, true)).toBeLessThanOrEqual(1000);
  });

  it("asks Shopify for the cost canonicalReadCost says with the mapping's metafields, category and collections", async () => {
    const id = await create({ title: 'Sourced', variants: [{ sku: 'S-1', price: '1.00' }] });
    const combinations: CanonicalSources[] = [
      RICH,
      { ...NO_EXTRA_SOURCES, productMetafields: RICH.productMetafields },
      { ...NO_EXTRA_SOURCES, variantMetafields: RICH.variantMetafields },
      { ...NO_EXTRA_SOURCES, category: true },
      { ...NO_EXTRA_SOURCES, collections: true },
    ];
    for (const sources of combinations) {
      for (const [variants, collections] of [
        [1, 25],
        [60, 250],
      ] as const) {
        const reply = await h.graphql(canonicalProductDocument({ media: true, sources }), {
          id,
          variants,
          ...(sources.collections ? { collections } : {}),
        });
        expect(reply.errors).toBeUndefined();
        expect({ sources, variants, cost: reply.extensions.cost.requestedQueryCost }).toEqual({
          sources,
          variants,
          cost: canonicalReadCost(variants, true, sources, collections),
        });
      }
    }
  });

  it('reads product and variant metafields (a list as a list) and the collections the product is in', async () => {
    const id = await create({ title: 'Linen apron', variants: [{ sku: 'LA-1', price: '20.00' }] });
    const variantId = (await readExisting(id)).variants[0]?.id;
    const set = await h.graphql(
      `mutation Set($metafields: [MetafieldsSetInput!]!) { metafieldsSet(metafields: $metafields) { userErrors { field message } } }`,
      {
        metafields: [
          {
            ownerId: id,
            namespace: 'custom',
            key: 'material',
            type: 'single_line_text_field',
            value: 'Linen',
          },
          {
            ownerId: id,
            namespace: 'custom',
            key: 'occasions',
            type: 'list.single_line_text_field',
            value: '["Casual","Work"]',
          },
          {
            ownerId: variantId,
            namespace: 'custom',
            key: 'weight_grams',
            type: 'number_integer',
            value: '180',
          },
        ],
      },
    );
    expect(set.errors).toBeUndefined();
    expect((set.data as { metafieldsSet: { userErrors: unknown[] } }).metafieldsSet.userErrors).toEqual([]);
    const collection = await h.merchant('POST', 'custom_collections.json', {
      custom_collection: { title: 'Kitchen', collects: [{ product_id: Number(id.split('/').pop()) }] },
    });
    expect(collection.status).toBe(201);

    const reply = await h.graphql(canonicalProductDocument({ media: false, sources: RICH }), {
      id,
      variants: 5,
    });
    expect(reply.errors).toBeUndefined();
    const product = readCanonicalProduct(reply.data, RICH);
    expect(product?.metafields).toEqual({
      'custom.material': { value: 'Linen', type: 'single_line_text_field' },
      'custom.occasions': { value: '["Casual","Work"]', type: 'list.single_line_text_field' },
    });
    expect(product?.variants[0]?.metafields).toEqual({
      'custom.weight_grams': { value: '180', type: 'number_integer' },
      'custom.absent': null,
    });
    expect(product?.collections).toEqual(['kitchen']);
    // The sandbox has no standard product categories (Product.category is always null).
    expect(product?.category).toBeNull();
  });

  it('reads a merchant product with options and plans it with the demo mapping', async () => {
    const id = await create({
      title: 'Linen shirt',
      vendor: 'Acme',
      product_type: 'Shirts',
      body_html: '<p>Linen.</p>',
      options: [{ name: 'Size' }, { name: 'Colour' }],
      variants: [
        { option1: 'Small', option2: 'White', sku: 'LS-S', barcode: '111', price: '49.00' },
        {
          option1: 'Medium',
          option2: 'White',
          sku: 'LS-M',
          barcode: '222',
          price: '49.00',
          compare_at_price: '59.00',
        },
      ],
    });
    const product = await readExisting(id);
    expect(product).toMatchObject({
      id,
      title: 'Linen shirt',
      vendor: 'Acme',
      productType: 'Shirts',
      descriptionHtml: '<p>Linen.</p>',
      status: 'ACTIVE',
      hasOnlyDefaultVariant: false,
      variantsCount: 2,
      options: [
        { name: 'Size', values: ['Small', 'Medium'] },
        { name: 'Colour', values: ['White'] },
      ],
    });
    expect(product.variants.map((v) => [v.sku, v.barcode, v.selectedOptions])).toEqual([
      [
        'LS-S',
        '111',
        [
          {
            name: 'Size',
            value: 'Small',
            optionValueId: expect.stringMatching(/^gid:\/\/shopify\/ProductOptionValue\/\d+$/),
          },
          {
            name: 'Colour',
            value: 'White',
            optionValueId: expect.stringMatching(/^gid:\/\/shopify\/ProductOptionValue\/\d+$/),
          },
        ],
      ],
      [
        'LS-M',
        '222',
        [
          {
            name: 'Size',
            value: 'Medium',
            optionValueId: expect.stringMatching(/^gid:\/\/shopify\/ProductOptionValue\/\d+$/),
          },
          {
            name: 'Colour',
            value: 'White',
            optionValueId: expect.stringMatching(/^gid:\/\/shopify\/ProductOptionValue\/\d+$/),
          },
        ],
      ],
    ]);
    // The value ids come from the product's options: the same value has the same id on every variant.
    expect(product.variants[0]?.selectedOptions[1]?.optionValueId).toBe(
      product.variants[1]?.selectedOptions[1]?.optionValueId,
    );
    expect(typeof product.variants[0]?.legacyResourceId).toBe('string');

    const plan = planSync({ shop: SHOP, product, mapping: demoMapping(), stored: [] });
    expect(plan.gaps).toEqual([]);
    expect(plan.calls.map((c) => c.kind)).toEqual(['createProduct', 'createVariant', 'createVariant']);
    expect(plan.calls[2]).toMatchObject({
      body: {
        attributes: [
          { key: 'price', value: expect.stringMatching(/^49(\.00?)?$/) },
          { key: 'compareAtPrice', value: expect.stringMatching(/^59(\.00?)?$/) },
          { key: 'gtin', value: '222' },
          { key: 'productModel', value: '222' },
          { key: 'size', value: 'M' },
          { key: 'color', value: 'White' },
        ],
      },
    });
  });

  it('reads a product without options as a simple product', async () => {
    const product = await readExisting(
      await create({ title: 'Mug', vendor: '', variants: [{ price: '9.50' }] }),
    );
    expect(isSimpleProduct(product)).toBe(true);
    expect(product.vendor).toBe('');
    const plan = planSync({ shop: SHOP, product, mapping: demoMapping(), stored: [] });
    expect(plan.records.map((r) => r.kind)).toEqual(['simple']);
    expect(plan.notes.map((n) => n.attribute)).toEqual(['brand', 'productModel']);
  });

  it('answers null for a product that does not exist', async () => {
    expect(await read('gid://shopify/Product/9007199254740993001')).toBeNull();
  });

  it('reads a product over 250 variants page by page, each value with its id, each page at the cost it says', async () => {
    const variants = ['Red', 'Green', 'Blue'].flatMap((colour) =>
      Array.from({ length: 200 }, (_, i) => ({ option1: colour, option2: `S${i}`, price: '5.00' })),
    );
    const id = await create({
      title: 'Big tee',
      vendor: 'Acme',
      options: [{ name: 'Colour' }, { name: 'Size' }],
      variants,
    });
    const asked: Array<{ said: number; charged: number }> = [];
    const admin = {
      request: async (document: string, vars: Record<string, unknown>, cost: number) => {
        const reply = await h.graphql(document, vars);
        expect(reply.errors).toBeUndefined();
        asked.push({ said: cost, charged: reply.extensions.cost.requestedQueryCost });
        return reply.data;
      },
    } as unknown as ShopAdminClient;
    const numeric = id.split('/').pop() as string;
    const read = await fetchCanonicalProduct(admin, numeric, {
      expectedVariants: null,
      media: false,
      allVariants: true,
    });
    const product = read.product as NonNullable<typeof read.product>;
    expect(product.variants).toHaveLength(600);
    expect(new Set(product.variants.map((v) => v.id)).size).toBe(600);
    expect(product.variants.every((v) => v.selectedOptions.every((o) => o.optionValueId))).toBe(true);
    // The first read (50), the full page (250), then two further pages of 250 from its cursor.
    expect(asked.length).toBe(4);
    for (const a of asked) expect(a.said).toBe(a.charged);
    const plan = planSync({
      shop: SHOP,
      product,
      mapping: demoMapping(),
      stored: [],
      largeProducts: 'split',
    });
    expect(plan.records.filter((r) => r.kind === 'parent')).toHaveLength(3);
    // Without allVariants the read stops at one page (the planner then plans nothing).
    const short = await fetchCanonicalProduct(admin, numeric, { expectedVariants: 600, media: false });
    expect(short.product?.variants).toHaveLength(250);
  });
});
