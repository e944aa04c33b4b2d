import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ShopifySandboxHarness, startShopifySandbox } from '#testing/shopify-sandbox';
import { NO_LENIENCY } from '../src/index.js';

// Values sent and answered in a real 2025-01 metafieldsSet (README, "Values and definitions").
const SENT_AND_STORED: Array<[key: string, type: string, sent: string, stored: string]> = [
  ['flag_t', 'boolean', 't', 'true'],
  ['flag_zero', 'boolean', '0', 'false'],
  ['count', 'number_integer', '5.000', '5'],
  ['ratio', 'number_decimal', '1.1234567891', '1.123456789'],
  ['launch_at', 'date_time', '2024-01-01T12:30:00', '2024-01-01T12:30:00+00:00'],
  ['mass', 'weight', '{"value":2.5,"unit":"kilograms"}', '{"value":2.5,"unit":"KILOGRAMS"}'],
  ['chest', 'dimension', '{"value":25,"unit":"centimeters"}', '{"value":25.0,"unit":"CENTIMETERS"}'],
  [
    'stars',
    'rating',
    '{"value":"3.5","scale_min":"1.0","scale_max":"5.0"}',
    '{"scale_min":"1.0","scale_max":"5.0","value":"3.5"}',
  ],
  ['ratios', 'list.number_decimal', '[10.4]', '["10.4"]'],
  ['rrp', 'money', '{"amount":"5.99","currency_code":"USD"}', '{"amount":"5.99","currency_code":"USD"}'],
];

const SET = `mutation($m: [MetafieldsSetInput!]!) {
  metafieldsSet(metafields: $m) { metafields { key value } userErrors { field message code } }
}`;
const READ = `query($id: ID!) { product(id: $id) { metafields(first: 50, namespace: "custom") { nodes { key value } } } }`;

interface SetReply {
  metafieldsSet: { metafields: Array<{ key: string; value: string }> | null; userErrors: unknown[] };
}
interface ReadReply {
  product: { metafields: { nodes: Array<{ key: string; value: string }> } };
}

async function newProduct(h: ShopifySandboxHarness): Promise<string> {
  const created = await h.merchant('POST', 'products.json', {
    product: { title: `Normal ${Math.random()}` },
  });
  return (created.body.product as { admin_graphql_api_id: string }).admin_graphql_api_id;
}

const byKey = (list: Array<{ key: string; value: string }> | null | undefined) =>
  Object.fromEntries((list ?? []).map((m) => [m.key, m.value]));
const writes = (ownerId: string) =>
  SENT_AND_STORED.map(([key, type, value]) => ({ ownerId, namespace: 'custom', key, type, value }));

describe('metafield values are stored and answered in Shopify’s form', () => {
  let h: ShopifySandboxHarness;
  beforeAll(async () => {
    h = await startShopifySandbox();
  });
  afterAll(() => h.close());

  it('in the metafieldsSet payload and in every later read', async () => {
    const productId = await newProduct(h);
    const reply = await h.graphql<SetReply>(SET, { m: writes(productId) });
    expect(reply.data?.metafieldsSet.userErrors).toEqual([]);
    const stored = Object.fromEntries(SENT_AND_STORED.map(([key, , , value]) => [key, value]));
    expect(byKey(reply.data?.metafieldsSet.metafields)).toEqual(stored);
    const read = await h.graphql<ReadReply>(READ, { id: productId });
    expect(byKey(read.data?.product.metafields.nodes)).toEqual(stored);
  });

  it('in the productUpdate payload', async () => {
    const productId = await newProduct(h);
    const update = await h.graphql<{
      productUpdate: { product: { metafields: { nodes: Array<{ key: string; value: string }> } } | null };
    }>(
      `mutation($p: ProductUpdateInput!) { productUpdate(product: $p) {
        product { metafields(first: 5, namespace: "custom") { nodes { key value } } } userErrors { message } } }`,
      {
        p: {
          id: productId,
          metafields: [
            { namespace: 'custom', key: 'launch_at', type: 'date_time', value: '2024-01-01T12:30:00' },
          ],
        },
      },
    );
    expect(byKey(update.data?.productUpdate.product?.metafields.nodes)).toEqual({
      launch_at: '2024-01-01T12:30:00+00:00',
    });
  });

  it('in the productVariantsBulkUpdate payload', async () => {
    const created = await h.merchant('POST', 'products.json', {
      product: { title: `Normal ${Math.random()}`, variants: [{ sku: 'N-1', price: '5' }] },
    });
    const product = created.body.product as {
      admin_graphql_api_id: string;
      variants: Array<{ admin_graphql_api_id: string }>;
    };
    const update = await h.graphql<{
      productVariantsBulkUpdate: {
        productVariants: Array<{ metafields: { nodes: Array<{ key: string; value: string }> } }> | null;
      };
    }>(
      `mutation($p: ID!, $v: [ProductVariantsBulkInput!]!) { productVariantsBulkUpdate(productId: $p, variants: $v) {
        productVariants { metafields(first: 5, namespace: "custom") { nodes { key value } } } userErrors { message } } }`,
      {
        p: product.admin_graphql_api_id,
        v: [
          {
            id: product.variants[0].admin_graphql_api_id,
            metafields: [
              { namespace: 'custom', key: 'mass', type: 'weight', value: '{"unit":"kilograms","value":2}' },
            ],
          },
        ],
      },
    );
    expect(byKey(update.data?.productVariantsBulkUpdate.productVariants?.[0].metafields.nodes)).toEqual({
      mass: '{"value":2.0,"unit":"KILOGRAMS"}',
    });
  });

  it('refuses what Shopify refuses: an integer with a plus sign', async () => {
    const productId = await newProduct(h);
    const reply = await h.graphql<SetReply>(SET, {
      m: [{ ownerId: productId, namespace: 'custom', key: 'plus', type: 'number_integer', value: '+5' }],
    });
    expect(reply.data?.metafieldsSet).toEqual({
      metafields: null,
      userErrors: [
        { field: ['metafields', '0', 'value'], message: 'Value must be an integer.', code: 'INVALID_VALUE' },
      ],
    });
  });
});

describe('SHOPIFY_SANDBOX_LENIENT=verbatim-values (kinder)', () => {
  it('stores and answers values as they were sent', async () => {
    const h = await startShopifySandbox({ leniency: { ...NO_LENIENCY, verbatimValues: true } });
    try {
      const productId = await newProduct(h);
      const reply = await h.graphql<SetReply>(SET, { m: writes(productId) });
      const sent = Object.fromEntries(SENT_AND_STORED.map(([key, , value]) => [key, value]));
      expect(byKey(reply.data?.metafieldsSet.metafields)).toEqual(sent);
      const read = await h.graphql<ReadReply>(READ, { id: productId });
      expect(byKey(read.data?.product.metafields.nodes)).toEqual(sent);
    } finally {
      await h.close();
    }
  });
});
