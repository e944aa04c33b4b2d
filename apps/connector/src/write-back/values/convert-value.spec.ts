import { describe, expect, it } from 'vitest';
import type { AttributeType } from '#lib/catalog-contract';
import type { WriteBackTarget } from '../../mapping/index.js';
import { convertValue, textToHtml } from './convert-value.js';
import { valueHash } from './value-hash.js';

const metafield = (type: string): WriteBackTarget => ({
  kind: 'metafield',
  namespace: '$app',
  key: 'k',
  type,
});
const field = (name: 'title' | 'descriptionHtml' | 'seo.title' | 'seo.description'): WriteBackTarget => ({
  kind: 'field',
  field: name,
});

/** The converted value (string for fields and metafields, list for tags), or the refusal. */
function convert(
  type: AttributeType,
  raw: string | string[],
  target: WriteBackTarget,
  shopCurrency?: string,
) {
  const result = convertValue(type, raw, target, { shopCurrency: shopCurrency ?? null });
  if (!result.ok) return { refused: result.reason };
  const value = result.value;
  return value.kind === 'tags' ? value.tags : value.value;
}

describe('convertValue', () => {
  it('writes product fields: HTML as is, text as escaped paragraphs, SEO as one line', () => {
    expect(convert('RICH_TEXT', '<p>Hi</p>', field('descriptionHtml'))).toBe('<p>Hi</p>');
    expect(convert('LONG_TEXT', 'a < b\nc\n\nd', field('descriptionHtml'))).toBe(
      '<p>a &lt; b<br>c</p><p>d</p>',
    );
    expect(convert('LONG_TEXT', ' Linen\nshirt ', field('seo.title'))).toBe('Linen shirt');
    expect(convert('RICH_TEXT', '<p>Soft.</p><ul><li>Linen</li></ul>', field('seo.description'))).toBe(
      'Soft. Linen',
    );
    expect(convert('TEXT', '  Title ', field('title'))).toBe('Title');
    expect(convert('TEXT', 'x'.repeat(256), field('title'))).toEqual({
      refused: 'a title has at most 255 characters, this one 256',
    });
  });

  it('makes tags of MULTI_SELECT values, one of each ignoring case, refusing commas', () => {
    expect(convert('MULTI_SELECT', ['eco', 'Eco', ' new '], { kind: 'tags' })).toEqual(['eco', 'new']);
    expect(convert('TEXT', 'summer', { kind: 'tags' })).toEqual(['summer']);
    expect(convert('TEXT', 'a, b', { kind: 'tags' })).toEqual({
      refused: 'tag "a, b" contains a comma (Shopify splits tags on commas)',
    });
  });

  it('writes a rich_text_field document from HTML or text, as JSON', () => {
    const html = JSON.parse(
      convert('RICH_TEXT', '<p>Hi <b>there</b></p>', metafield('rich_text_field')) as string,
    );
    expect(html).toEqual({
      type: 'root',
      children: [
        {
          type: 'paragraph',
          children: [
            { type: 'text', value: 'Hi ' },
            { type: 'text', value: 'there', bold: true },
          ],
        },
      ],
    });
    expect(
      JSON.parse(convert('LONG_TEXT', 'one\n\ntwo', metafield('rich_text_field')) as string).children,
    ).toHaveLength(2);
    expect(convert('RICH_TEXT', '<p> </p>', metafield('rich_text_field'))).toEqual({
      refused: 'the rich text has no content',
    });
  });

  it('writes lists as JSON arrays: MULTI_SELECT items, LONG_TEXT lines without bullets', () => {
    expect(convert('MULTI_SELECT', ['Casual', 'Work'], metafield('list.single_line_text_field'))).toBe(
      '["Casual","Work"]',
    );
    expect(
      convert('LONG_TEXT', '- Soft\n• Light\n\n2. Cool\nPlain', metafield('list.single_line_text_field')),
    ).toBe('["Soft","Light","Cool","Plain"]');
    expect(
      convert(
        'LONG_TEXT',
        Array.from({ length: 129 }, (_, i) => `l${i}`).join('\n'),
        metafield('list.single_line_text_field'),
      ),
    ).toEqual({ refused: 'a list holds at most 128 items, this one 129' });
  });

  it('writes text metafields: one line, or several; HTML reduced to its lines', () => {
    expect(convert('TEXT', 'Linen', metafield('single_line_text_field'))).toBe('Linen');
    expect(convert('MEASURE', '12.5 cm', metafield('single_line_text_field'))).toBe('12.5 cm');
    expect(convert('LONG_TEXT', 'Wash cold.\nDry flat.', metafield('multi_line_text_field'))).toBe(
      'Wash cold.\nDry flat.',
    );
    expect(
      convert(
        'RICH_TEXT',
        '<p>Wash cold.</p><ul><li>Dry flat.</li></ul>',
        metafield('multi_line_text_field'),
      ),
    ).toBe('Wash cold.\nDry flat.');
    expect(convert('TEXT', '   ', metafield('single_line_text_field'))).toEqual({
      refused: 'the value is blank',
    });
  });

  it('writes numbers, booleans, colors, dates, urls, money and measures as Shopify formats them', () => {
    expect(convert('NUMBER', '42', metafield('number_integer'))).toBe('42');
    expect(convert('NUMBER', '12.5', metafield('number_integer'))).toEqual({
      refused: '"12.5" is not an integer',
    });
    expect(convert('NUMBER', '9007199254740992', metafield('number_integer'))).toEqual({
      refused: "9007199254740992 is outside number_integer's range",
    });
    expect(convert('PRICE', '19.90 EUR', metafield('number_decimal'))).toBe('19.90');
    expect(convert('NUMBER', '007.5', metafield('number_decimal'))).toBe('7.5');
    expect(convert('DROPDOWN', 'True', metafield('boolean'))).toBe('true');
    expect(convert('TEXT', '#A0B1C2', metafield('color'))).toBe('#a0b1c2');
    expect(convert('DATE', '2026-03-01', metafield('date'))).toBe('2026-03-01');
    expect(convert('DATETIME', '2026-03-01T08:00:00+01:00', metafield('date_time'))).toBe(
      '2026-03-01T07:00:00',
    );
    expect(convert('DATE', '2026-03-01', metafield('date_time'))).toBe('2026-03-01T00:00:00');
    expect(convert('URL', 'https://acme.example/x', metafield('url'))).toBe('https://acme.example/x');
    expect(convert('URL', 'ftp://acme.example/x', metafield('url'))).toEqual({
      refused: '"ftp://acme.example/x" has none of the schemes https, http, mailto, sms, tel',
    });
    expect(convert('PRICE', '19.90 EUR', metafield('money'))).toBe(
      '{"amount":"19.90","currency_code":"EUR"}',
    );
    expect(convert('PRICE', '19.90', metafield('money'), 'usd')).toBe(
      '{"amount":"19.90","currency_code":"USD"}',
    );
    expect(convert('PRICE', '19.90', metafield('money'))).toEqual({
      refused: 'the price has no currency and the shop currency is unknown',
    });
    expect(convert('MEASURE', '12.5 CM', metafield('dimension'))).toBe('{"value":12.5,"unit":"cm"}');
    expect(convert('MEASURE', '2 kg', metafield('dimension'))).toEqual({
      refused: '"2 kg" is not a dimension in in, ft, yd, mm, cm, m',
    });
    expect(convert('MULTI_SELECT', ['a', 'b'], metafield('json'))).toBe('["a","b"]');
  });

  it('refuses a value over the type’s size limit', () => {
    expect(convert('LONG_TEXT', 'x'.repeat(65_537), metafield('multi_line_text_field'))).toEqual({
      refused: 'multi_line_text_field values are at most 65536 bytes, this one 65537',
    });
  });
});

describe('valueHash', () => {
  it('hashes equal values alike: SEO null and "", tags as a set ignoring case, JSON parsed', () => {
    expect(valueHash({ kind: 'field', value: null })).toBe(valueHash({ kind: 'field', value: '  ' }));
    expect(valueHash({ kind: 'tags', tags: ['Eco', 'new'] })).toBe(
      valueHash({ kind: 'tags', tags: ['NEW', 'eco', 'eco'] }),
    );
    expect(valueHash({ kind: 'metafield', type: 'json', value: '{"a":1,"b":2}' })).toBe(
      valueHash({ kind: 'metafield', type: 'json', value: '{ "b": 2, "a": 1 }' }),
    );
    expect(valueHash({ kind: 'metafield', type: 'single_line_text_field', value: 'a' })).not.toBe(
      valueHash({ kind: 'metafield', type: 'single_line_text_field', value: null }),
    );
    expect(valueHash({ kind: 'field', value: 'a' })).not.toBe(valueHash({ kind: 'field', value: 'b' }));
  });

  it('textToHtml escapes and splits paragraphs', () => {
    expect(textToHtml('"Tom" & Jerry')).toBe('<p>&quot;Tom&quot; &amp; Jerry</p>');
  });
});
