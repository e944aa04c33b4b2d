import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { productPayloadFacts } from './product-payload.js';

const fixtures = new URL('../../test/fixtures/shopify/', import.meta.url);
const read = (name: string) =>
  JSON.parse(readFileSync(new URL(name, fixtures), 'utf8')) as Record<string, unknown>;

/** Bytes as Shopify writes them: compact JSON with every `/` escaped. */
function shopifyBytes(payload: unknown): Buffer {
  return Buffer.from(JSON.stringify(payload).replaceAll('/', '\\/'));
}
const facts = (payload: unknown) => {
  const bytes = shopifyBytes(payload);
  return productPayloadFacts({ bytes, totalBytes: bytes.length, truncated: false });
};

// The real payloads of test/fixtures/shopify (see SOURCE.md): field coverage, not id precision
// (the docs examples' numeric ids were rounded by the scraper; their gids are exact).
describe('productPayloadFacts on the shared Shopify payloads', () => {
  it('reads the anonymized real products/update payload (API 2025-04)', () => {
    expect(facts(read('products_update.anonymized-real.2025-04.json'))).toEqual({
      productId: '123',
      payloadUpdatedAt: new Date('2019-01-01T00:00:00.000Z'),
      rejection: null,
    });
  });

  for (const topic of ['products_create', 'products_update']) {
    it(`reads the docs example of ${topic.replace('_', '/')} with its exact gid (beyond 2^53)`, () => {
      const payload = read(`${topic}.docs-example.metadata.json`).response as Record<string, unknown>;
      // The scraper rounded `id`; Shopify sends the gid's digits in both.
      const exact = { ...payload, id: 0 };
      const text = JSON.stringify(exact).replace('"id":0', '"id":788032119674292922').replaceAll('/', '\\/');
      const bytes = Buffer.from(text);
      expect(productPayloadFacts({ bytes, totalBytes: bytes.length, truncated: false })).toEqual({
        productId: '788032119674292922',
        payloadUpdatedAt: new Date('2022-01-01T00:00:00Z'),
        rejection: null,
      });
    });
  }

  it('reads a products/delete payload (only an id)', () => {
    const bytes = Buffer.from('{"id":788032119674292922}');
    expect(productPayloadFacts({ bytes, totalBytes: bytes.length, truncated: false }).productId).toBe(
      '788032119674292922',
    );
    expect(read('products_delete.docs-example.metadata.json').response).toHaveProperty('id');
  });

  it('refuses the docs examples as scraped, whose rounded id disagrees with the gid', () => {
    const payload = read('products_update.docs-example.metadata.json').response;
    expect(facts(payload).rejection?.message).toMatch(/disagree/);
  });
});
