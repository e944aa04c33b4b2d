import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ShopifySandboxHarness, startShopifySandbox } from '#testing/shopify-sandbox';
import { NO_LENIENCY } from '../src/index.js';

const SET = `mutation($m: [MetafieldsSetInput!]!) {
  metafieldsSet(metafields: $m) { metafields { namespace key type value } userErrors { field message code elementIndex } }
}`;

interface SetReply {
  metafieldsSet: {
    metafields: Array<{ namespace: string; key: string; type: string; value: string }> | null;
    userErrors: Array<{ field: string[]; message: string; code: string; elementIndex: number | null }>;
  };
}

async function productWithVariant(h: ShopifySandboxHarness) {
  const created = await h.merchant('POST', 'products.json', {
    product: { title: `Validated ${Math.random()}`, variants: [{ sku: 'V-1', price: '5' }] },
  });
  const product = created.body.product as {
    admin_graphql_api_id: string;
    variants: Array<{ admin_graphql_api_id: string }>;
  };
  return { productId: product.admin_graphql_api_id, variantId: product.variants[0].admin_graphql_api_id };
}

describe('metafieldsSet checks values, types and namespaces as Shopify does', () => {
  let h: ShopifySandboxHarness;
  let productId: string;
  let variantId: string;
  beforeAll(async () => {
    h = await startShopifySandbox();
    ({ productId, variantId } = await productWithVariant(h));
  });
  afterAll(() => h.close());

  const set = (writes: Array<Record<string, unknown>>) =>
    h.graphql<SetReply>(SET, { m: writes.map((w) => ({ ownerId: productId, namespace: 'custom', ...w })) });
  const storedKeys = async () => {
    const read = await h.graphql<{ product: { metafields: { nodes: Array<{ key: string }> } } }>(
      'query($id: ID!) { product(id: $id) { metafields(first: 50) { nodes { key } } } }',
      { id: productId },
    );
    return read.data?.product.metafields.nodes.map((m) => m.key) ?? [];
  };

  it('accepts a valid value of every kind of type', async () => {
    const rich = {
      type: 'root',
      children: [{ type: 'paragraph', children: [{ type: 'text', value: 'Soft', bold: true }] }],
    };
    const writes = [
      { key: 'title_line', type: 'single_line_text_field', value: 'Linen shirt' },
      { key: 'care', type: 'multi_line_text_field', value: 'Wash cold\nDry flat' },
      { key: 'story', type: 'rich_text_field', value: JSON.stringify(rich) },
      { key: 'link', type: 'url', value: 'https://example.com/linen' },
      { key: 'launch', type: 'date', value: '2026-03-01' },
      { key: 'launch_at', type: 'date_time', value: '2026-03-01T09:00:00' },
      { key: 'swatch', type: 'color', value: '#c0ffee' },
      { key: 'rrp', type: 'money', value: '{"amount":"35.00","currency_code":"USD"}' },
      { key: 'chest', type: 'dimension', value: '{"value":52,"unit":"cm"}' },
      { key: 'mass', type: 'weight', value: '{"value":0.3,"unit":"kg"}' },
      { key: 'bottle', type: 'volume', value: '{"value":500,"unit":"ml"}' },
      { key: 'stars', type: 'rating', value: '{"value":"4.5","scale_min":"1.0","scale_max":"5.0"}' },
      { key: 'default_variant', type: 'variant_reference', value: variantId },
      { key: 'sizes', type: 'list.single_line_text_field', value: '["S","M","L"]' },
      { key: 'widths', type: 'list.dimension', value: '[{"value":1,"unit":"m"}]' },
    ];
    const reply = await set(writes);
    expect(reply.data?.metafieldsSet.userErrors).toEqual([]);
    expect(reply.data?.metafieldsSet.metafields?.map((m) => m.key)).toEqual(writes.map((w) => w.key));
  });

  it('refuses invalid values with INVALID_VALUE and Shopify’s messages, and stores none of the batch', async () => {
    const reply = await set([
      { key: 'fine', type: 'single_line_text_field', value: 'ok' },
      { key: 'bad_link', type: 'url', value: 'not a url' },
      { key: 'bad_line', type: 'single_line_text_field', value: 'two\nlines' },
      { key: 'bad_date', type: 'date', value: '2026-13-01' },
      { key: 'bad_rich', type: 'rich_text_field', value: '<p>Soft</p>' },
      { key: 'bad_money', type: 'money', value: '{"amount":"35.00","currency_code":"EUR"}' },
      { key: 'bad_ref', type: 'product_reference', value: variantId },
      { key: 'bad_list', type: 'list.url', value: '["https://a.example","nope"]' },
      { key: 'blank', type: 'multi_line_text_field', value: '' },
      { key: 'too_big', type: 'single_line_text_field', value: 'x'.repeat(65_537) },
    ]);
    expect(reply.data?.metafieldsSet.metafields).toBeNull();
    expect(reply.data?.metafieldsSet.userErrors).toEqual([
      {
        field: ['metafields', '1', 'value'],
        message:
          'Value cannot have an empty scheme (protocol), must include one of the following URL schemes: ["http", "https", "mailto", "sms", "tel"].',
        code: 'INVALID_VALUE',
        elementIndex: null,
      },
      {
        field: ['metafields', '2', 'value'],
        message: 'Value must be a single line text string.',
        code: 'INVALID_VALUE',
        elementIndex: null,
      },
      {
        field: ['metafields', '3', 'value'],
        message: 'Value must be in YYYY-MM-DD format.',
        code: 'INVALID_VALUE',
        elementIndex: null,
      },
      {
        field: ['metafields', '4', 'value'],
        message: 'Value must be a rich text document (a JSON object of type "root").',
        code: 'INVALID_VALUE',
        elementIndex: null,
      },
      expect.objectContaining({ field: ['metafields', '5', 'value'], code: 'INVALID_VALUE' }),
      {
        field: ['metafields', '6', 'value'],
        message: 'Value must be a valid product reference.',
        code: 'INVALID_VALUE',
        elementIndex: null,
      },
      expect.objectContaining({
        field: ['metafields', '7', 'value'],
        code: 'INVALID_VALUE',
        elementIndex: 1,
      }),
      {
        field: ['metafields', '8', 'value'],
        message: "Value can't be blank.",
        code: 'BLANK',
        elementIndex: null,
      },
      {
        field: ['metafields', '9', 'value'],
        message: "Value can't exceed 65536 bytes.",
        code: 'TOO_LONG',
        elementIndex: null,
      },
    ]);
    expect(await storedKeys()).not.toContain('fine');
  });

  it('refuses an unknown type, a missing type and two writes to one slot', async () => {
    const reply = await set([
      { key: 'shade', type: 'colour', value: '#ffffff' },
      { key: 'untyped', value: 'x' },
      { key: 'twice', type: 'single_line_text_field', value: 'a' },
      { key: 'twice', type: 'single_line_text_field', value: 'b' },
    ]);
    expect(reply.data?.metafieldsSet.userErrors).toEqual([
      {
        field: ['metafields', '0', 'type'],
        message: "Type 'colour' is not a valid metafield type.",
        code: 'INVALID_TYPE',
        elementIndex: null,
      },
      {
        field: ['metafields', '1', 'type'],
        message: "Type can't be blank.",
        code: 'BLANK',
        elementIndex: null,
      },
      {
        field: ['metafields', '3', 'key'],
        message: 'The same ownerId, namespace and key appear more than once in this request.',
        code: 'TAKEN',
        elementIndex: null,
      },
    ]);
    expect(await storedKeys()).not.toContain('twice');
  });

  it('applies the namespace rules, refusing reserved namespaces with APP_NOT_AUTHORIZED', async () => {
    const reply = await set([
      { namespace: 'ab', key: 'short_ns', type: 'single_line_text_field', value: 'x' },
      { namespace: 'shopify', key: 'color-pattern', type: 'single_line_text_field', value: 'x' },
      { namespace: 'app--123', key: 'theirs', type: 'single_line_text_field', value: 'x' },
      { namespace: 'custom', key: 'k', type: 'single_line_text_field', value: 'x' },
    ]);
    expect(reply.data?.metafieldsSet.userErrors.map((e) => [e.field.join('.'), e.code])).toEqual([
      ['metafields.0.namespace', 'TOO_SHORT'],
      ['metafields.1.namespace', 'APP_NOT_AUTHORIZED'],
      ['metafields.2.namespace', 'APP_NOT_AUTHORIZED'],
      ['metafields.3.key', 'TOO_SHORT'],
    ]);
    const own = await set([{ namespace: '$app:reviews', key: 'score', type: 'number_integer', value: '4' }]);
    expect(own.data?.metafieldsSet).toEqual({
      metafields: [{ namespace: 'app--5717453--reviews', key: 'score', type: 'number_integer', value: '4' }],
      userErrors: [],
    });
  });

  it('tells a malformed compareDigest from a stale one', async () => {
    const base = { key: 'digested', type: 'single_line_text_field' };
    expect((await set([{ ...base, value: 'a' }])).data?.metafieldsSet.userErrors).toEqual([]);
    const malformed = await set([{ ...base, value: 'b', compareDigest: 'not-a-digest' }]);
    expect(malformed.data?.metafieldsSet.userErrors[0]).toMatchObject({
      field: ['metafields', '0', 'compareDigest'],
      code: 'INVALID_COMPARE_DIGEST',
    });
    const stale = await set([{ ...base, value: 'b', compareDigest: '0'.repeat(64) }]);
    expect(stale.data?.metafieldsSet.userErrors[0]).toMatchObject({ code: 'STALE_OBJECT' });
  });

  it('checks the metafields of productUpdate and productVariantsBulkUpdate too', async () => {
    const update = await h.graphql<{ productUpdate: { product: null; userErrors: unknown[] } }>(
      `mutation($p: ProductUpdateInput!) { productUpdate(product: $p) { product { id } userErrors { field message } } }`,
      {
        p: { id: productId, metafields: [{ namespace: 'custom', key: 'spec', type: 'url', value: 'nope' }] },
      },
    );
    expect(update.data?.productUpdate).toEqual({
      product: null,
      userErrors: [
        {
          field: ['metafields', '0', 'value'],
          message:
            'Value cannot have an empty scheme (protocol), must include one of the following URL schemes: ["http", "https", "mailto", "sms", "tel"].',
        },
      ],
    });
    const bulk = await h.graphql<{
      productVariantsBulkUpdate: { userErrors: Array<{ field: string[]; code: string }> };
    }>(
      `mutation($id: ID!, $v: [ProductVariantsBulkInput!]!) {
        productVariantsBulkUpdate(productId: $id, variants: $v) { userErrors { field message code } } }`,
      {
        id: productId,
        v: [
          { id: variantId, metafields: [{ namespace: 'custom', key: 'fit', type: 'boolean', value: 'yes' }] },
        ],
      },
    );
    expect(bulk.data?.productVariantsBulkUpdate.userErrors).toEqual([
      {
        field: ['variants', '0', 'metafields', '0', 'value'],
        message: 'Value must be true or false.',
        code: 'INVALID_INPUT',
      },
    ]);
  });
});

describe('metafield-values leniency', () => {
  it('accepts any type and value when a test asks for it by name', async () => {
    const h = await startShopifySandbox({ leniency: { ...NO_LENIENCY, metafieldValues: true } });
    try {
      const { productId } = await productWithVariant(h);
      const reply = await h.graphql<SetReply>(SET, {
        m: [
          { ownerId: productId, namespace: 'custom', key: 'shade', type: 'colour', value: 'red' },
          { ownerId: productId, namespace: 'custom', key: 'link', type: 'url', value: 'not a url' },
        ],
      });
      expect(reply.data?.metafieldsSet.userErrors).toEqual([]);
      expect(reply.data?.metafieldsSet.metafields?.map((m) => m.value)).toEqual(['red', 'not a url']);
      // Namespace rules still apply: they are not about values.
      const reserved = await h.graphql<SetReply>(SET, {
        m: [
          { ownerId: productId, namespace: 'shopify', key: 'x1', type: 'single_line_text_field', value: 'x' },
        ],
      });
      expect(reserved.data?.metafieldsSet.userErrors[0].code).toBe('APP_NOT_AUTHORIZED');
    } finally {
      await h.close();
    }
  });
});
