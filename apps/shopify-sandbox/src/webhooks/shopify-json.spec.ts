import { describe, expect, it } from 'vitest';
import { shopifyJson } from './shopify-json.js';

describe('shopifyJson', () => {
  it('escapes "/" as Shopify does, in URLs and in HTML', () => {
    const raw = shopifyJson({
      admin_graphql_api_id: 'gid://shopify/Product/1',
      body_html: '<p>x</p>',
    });
    expect(raw).toBe('{"admin_graphql_api_id":"gid:\\/\\/shopify\\/Product\\/1","body_html":"<p>x<\\/p>"}');
    expect(JSON.parse(raw)).toEqual({
      admin_graphql_api_id: 'gid://shopify/Product/1',
      body_html: '<p>x</p>',
    });
    expect(JSON.stringify(JSON.parse(raw))).not.toBe(raw);
  });

  it('round-trips backslashes, quotes, unicode and control characters', () => {
    const value = { a: 'back\\/slash "quoted" é 😀 \u0001\n', 'k/ey': [1, null, true, { b: -0.5 }] };
    expect(JSON.parse(shopifyJson(value))).toEqual(value);
  });

  it('writes bigint ids beyond 2^53 exactly, as JSON numbers', () => {
    const raw = shopifyJson({ id: 788032119674292922n, ids: [642667041472713922n] });
    expect(raw).toBe('{"id":788032119674292922,"ids":[642667041472713922]}');
  });

  it('skips undefined members and honours toJSON, like JSON.stringify', () => {
    const at = new Date(Date.UTC(2026, 0, 1));
    expect(shopifyJson({ a: undefined, at, list: [undefined] })).toBe(
      '{"at":"2026-01-01T00:00:00.000Z","list":[null]}',
    );
  });
});
