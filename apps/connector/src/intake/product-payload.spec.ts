import { describe, expect, it } from 'vitest';
import { productPayloadFacts } from './product-payload.js';

const facts = (text: string, truncated = false) =>
  productPayloadFacts({
    bytes: Buffer.from(text),
    totalBytes: text.length * (truncated ? 10 : 1),
    truncated,
  });

describe('productPayloadFacts', () => {
  it('reads the id and updated_at of a products/update payload as Shopify writes it', () => {
    const body =
      '{"admin_graphql_api_id":"gid:\\/\\/shopify\\/Product\\/7390000000006","id":7390000000006,' +
      '"updated_at":"2026-01-01T07:00:00-05:00","title":""}';
    expect(facts(body)).toEqual({
      productId: '7390000000006',
      payloadUpdatedAt: new Date('2026-01-01T12:00:00Z'),
      rejection: null,
    });
  });

  it('keeps ids beyond 2^53 exact, from `id` alone or from the gid', () => {
    expect(facts('{"id":788032119674292922}').productId).toBe('788032119674292922');
    expect(
      facts('{"id":9007199254740993,"admin_graphql_api_id":"gid://shopify/Product/9007199254740993"}')
        .productId,
    ).toBe('9007199254740993');
  });

  it('refuses what it cannot use, with a reason', () => {
    expect(facts('{"id": 1, ').rejection?.code).toBe('malformed_json');
    expect(facts('[1,2]').rejection?.code).toBe('invalid_payload');
    expect(facts('{"title":"x"}').rejection?.code).toBe('invalid_payload');
    expect(facts('{"id":-4}').rejection?.code).toBe('invalid_payload');
    expect(facts('{"id":99999999999999999999}').rejection?.code).toBe('invalid_payload');
    expect(facts('{"id":1,"admin_graphql_api_id":"gid://shopify/Product/2"}').rejection?.message).toMatch(
      /disagree/,
    );
  });

  it('finds the product of a body too large to keep in its first bytes, or refuses it', () => {
    expect(
      facts('{"admin_graphql_api_id":"gid:\\/\\/shopify\\/Product\\/42","body_html":"xxxx', true),
    ).toEqual({
      productId: '42',
      payloadUpdatedAt: null,
      rejection: null,
    });
    expect(facts('{"body_html":"xxxxxxxx', true).rejection?.code).toBe('payload_too_large');
  });
});
