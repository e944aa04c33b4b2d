import { describe, expect, it } from 'vitest';
import { metafieldType, metafieldValueProblem, type ValueContext } from './metafield-value.js';

const ctx: ValueContext = {
  currencyCode: 'USD',
  referenceExists: (gid) => (gid.includes('/Product/') ? gid.endsWith('/1') : undefined),
};
const problem = (type: string, value: string) => metafieldValueProblem(type, value, ctx);
const accepts = (type: string, ...values: string[]) => {
  for (const value of values) expect(problem(type, value), `${type} ${value}`).toBeUndefined();
};
const refuses = (type: string, message: string, ...values: string[]) => {
  for (const value of values) {
    expect(problem(type, value), `${type} ${value}`).toEqual({
      code: 'INVALID_VALUE',
      message,
      elementIndex: null,
    });
  }
};
const richText = (children: unknown[]) => JSON.stringify({ type: 'root', children });

describe('metafieldType', () => {
  it('knows Shopify types and their list forms, and nothing else', () => {
    expect(metafieldType('url')).toMatchObject({ list: false, spec: { kind: 'url', maxBytes: 2_048 } });
    expect(metafieldType('list.variant_reference')).toMatchObject({
      list: true,
      spec: { kind: 'reference' },
    });
    for (const unknown of [
      'colour',
      'string',
      'integer',
      'list.boolean',
      'list.rich_text_field',
      'list.list.url',
    ])
      expect(metafieldType(unknown), unknown).toBeUndefined();
  });
});

describe('metafieldValueProblem', () => {
  it('refuses blank values of every type', () => {
    for (const type of ['single_line_text_field', 'multi_line_text_field', 'json', 'list.url', 'boolean']) {
      expect(problem(type, '  ')).toEqual({
        code: 'BLANK',
        message: "Value can't be blank.",
        elementIndex: null,
      });
    }
  });

  it('checks text, numbers, booleans and json', () => {
    accepts('single_line_text_field', 'Soft cotton');
    refuses('single_line_text_field', 'Value must be a single line text string.', 'a\nb', 'a\rb');
    accepts('multi_line_text_field', 'line 1\nline 2');
    // `5.0` is taken for 5 and `+5` refused (real 2025-01 answers).
    accepts('number_integer', '42', '-7', '9007199254740991', '5.0');
    refuses('number_integer', 'Value must be an integer.', '4.2', 'ten', '9007199254740992', '+5');
    // More than nine decimal places are cut, not refused (a real 2025-01 answer).
    accepts('number_decimal', '10.5', '-0.25', '9999999999999.999999999', '1.1234567891');
    refuses('number_decimal', 'Value must be a decimal.', '1e3', '10,5', '99999999999999.5');
    accepts('boolean', 'true', 'false', 't', '1', ' TRUE ', 'f', '0');
    refuses('boolean', 'Value must be true or false.', 'yes', 'no');
    accepts('json', '{"a":1}', '[1,2]', '"text"', 'null');
    refuses('json', 'Value is invalid JSON.', '{a:1}');
  });

  it('checks url, color, date and date_time formats', () => {
    accepts('url', 'https://example.com/a', 'http://example.com', 'mailto:a@example.com', 'tel:+15551234');
    const url =
      'Value cannot have an empty scheme (protocol), must include one of the following URL schemes: ["http", "https", "mailto", "sms", "tel"].';
    refuses('url', url, 'not a url', 'example.com', 'ftp://example.com/a', 'javascript:alert(1)', 'https://');
    accepts('color', '#fff123', '#A0B1C2');
    refuses('color', 'Value must be a hex color code.', 'red', '#fff', '#ggg123');
    accepts('date', '2026-02-28', '2024-02-29');
    refuses('date', 'Value must be in YYYY-MM-DD format.', '2026-02-30', '26-01-01', '2026-01-01T00:00:00');
    accepts('date_time', '2022-01-01T12:30:00', '2022-01-01T12:30:00Z', '2022-01-01T12:30:00+02:00');
    refuses(
      'date_time',
      'Value must be in YYYY-MM-DDTHH:MM:SS format.',
      '2022-01-01',
      '2022-01-01 12:30',
      '2022-01-01T25:00:00',
    );
  });

  it('checks money, measurements, ratings and links', () => {
    accepts('money', '{"amount":"5.99","currency_code":"USD"}', '{"amount":5,"currency_code":"USD"}');
    const money =
      "Value must be a stringified JSON object with amount (numeric) and currency_code (string matching the shop's currency) fields.";
    refuses(
      'money',
      money,
      '{"amount":"5.99","currency_code":"CAD"}',
      '{"amount":"five","currency_code":"USD"}',
      '5.99',
    );
    accepts('dimension', '{"value":20.5,"unit":"cm"}', '{"value":"3","unit":"in"}');
    refuses('dimension', 'Value must be a supported unit.', '{"value":2,"unit":"kg"}');
    refuses('weight', 'Value must be a non-negative number.', '{"value":-1,"unit":"kg"}');
    refuses('volume', 'Value must contain unit and value.', '{"value":1}', '12');
    accepts('volume', '{"value":20,"unit":"ml"}', '{"value":1,"unit":"imp_gal"}');
    accepts('weight', '{"value":2.5,"unit":"kg"}');
    accepts('rating', '{"value":"3.5","scale_min":"1.0","scale_max":"5.0"}');
    refuses(
      'rating',
      'Value must be a rating.',
      '{"value":"6","scale_min":"1","scale_max":"5"}',
      '{"value":"3"}',
    );
    accepts('link', '{"text":"Docs","url":"https://example.com"}');
    refuses(
      'link',
      'Value must be a valid link.',
      '{"text":"Docs","url":"example.com"}',
      '{"url":"https://e.com"}',
    );
  });

  it('checks a rich_text_field document', () => {
    const text = { type: 'text', value: 'Hello', bold: true };
    accepts(
      'rich_text_field',
      richText([
        { type: 'heading', level: 2, children: [text] },
        {
          type: 'paragraph',
          children: [text, { type: 'link', url: 'https://e.com', title: 'E', children: [text] }],
        },
        { type: 'list', listType: 'unordered', children: [{ type: 'list-item', children: [text] }] },
      ]),
    );
    const message = 'Value must be a rich text document (a JSON object of type "root").';
    refuses(
      'rich_text_field',
      message,
      '<p>Hello</p>',
      '{"type":"paragraph","children":[]}',
      richText([{ type: 'heading', level: 7, children: [text] }]),
      richText([{ type: 'paragraph', children: [{ type: 'text', value: 3 }] }]),
      richText([{ type: 'list', listType: 'ordered', children: [text] }]),
      richText([{ type: 'paragraph', children: [{ type: 'text', value: 'x', bold: 'yes' }] }]),
      richText([{ type: 'table', children: [] }]),
    );
  });

  it('checks references: a gid of the right type, of a product or variant that exists', () => {
    accepts('product_reference', 'gid://shopify/Product/1');
    accepts('collection_reference', 'gid://shopify/Collection/9');
    accepts('file_reference', 'gid://shopify/MediaImage/9', 'gid://shopify/GenericFile/9');
    refuses(
      'product_reference',
      'Value must be a valid product reference.',
      'gid://shopify/ProductVariant/1',
      '1',
    );
    refuses(
      'product_reference',
      'Value references non-existent resource gid://shopify/Product/2.',
      'gid://shopify/Product/2',
    );
    refuses(
      'variant_reference',
      'Value must be a valid product variant reference.',
      'gid://shopify/Product/1',
    );
  });

  it('checks every item of a list, naming the item at fault', () => {
    accepts('list.single_line_text_field', '["a","b"]');
    accepts('list.number_integer', '[1,2,"3"]');
    accepts('list.weight', '[{"value":1,"unit":"g"}]');
    accepts('list.product_reference', '["gid://shopify/Product/1"]');
    expect(problem('list.url', '["https://a.com","nope"]')).toMatchObject({
      code: 'INVALID_VALUE',
      elementIndex: 1,
    });
    expect(problem('list.color', '["#ffffff",3]')).toMatchObject({
      message: 'Value must be a hex color code.',
      elementIndex: 1,
    });
    expect(problem('list.date', '"2026-01-01"')).toMatchObject({ message: 'Value must be a JSON array.' });
    expect(problem('list.single_line_text_field', JSON.stringify(Array(129).fill('x')))).toMatchObject({
      message: 'Value has more than 128 elements.',
    });
    expect(
      problem('list.metaobject_reference', JSON.stringify(Array(200).fill('gid://shopify/Metaobject/1'))),
    ).toBeUndefined();
  });

  it('enforces the size limit of each type, in bytes', () => {
    expect(problem('single_line_text_field', 'é'.repeat(32_769))).toEqual({
      code: 'TOO_LONG',
      message: "Value can't exceed 65536 bytes.",
      elementIndex: null,
    });
    accepts('single_line_text_field', 'a'.repeat(65_536));
    expect(problem('url', `https://example.com/${'a'.repeat(2_030)}`)).toMatchObject({ code: 'TOO_LONG' });
    accepts('json', JSON.stringify({ a: 'b'.repeat(100_000) }));
    expect(problem('json', JSON.stringify({ a: 'b'.repeat(131_072) }))).toMatchObject({ code: 'TOO_LONG' });
    expect(problem('list.single_line_text_field', JSON.stringify(['ok', 'x'.repeat(65_537)]))).toMatchObject({
      code: 'TOO_LONG',
      elementIndex: 1,
    });
  });
});
