import { describe, expect, it } from 'vitest';
import { accountSeries, catalogEvidence, isProductWrite } from './catalog-evidence.js';

describe('catalog evidence', () => {
  it('counts creates, updates and deletes of products and variants as product writes, not searches', () => {
    for (const endpoint of [
      'POST /v1/products',
      'PATCH /v1/products',
      'PATCH /v1/products/{skuId}',
      'DELETE /v1/products/{skuId}',
      'POST /v1/variants',
      'PATCH /v1/variants/{skuId}',
    ]) {
      expect(isProductWrite(endpoint), endpoint).toBe(true);
    }
    for (const endpoint of [
      'POST /v1/products/search',
      'GET /v1/products/{skuId}',
      'POST /v1/upload/prepare',
    ]) {
      expect(isProductWrite(endpoint), endpoint).toBe(false);
    }
  });

  it("reads one account's series: writes, 5xx by status, calls and 429s", () => {
    const a = 'http://catalog#aaaa';
    const rows = [
      { series: accountSeries('catalog_calls', a), count: 12 },
      { series: accountSeries('catalog_writes', a), count: 8 },
      { series: accountSeries('catalog_write_500', a), count: 6 },
      { series: accountSeries('catalog_write_503', a), count: 1 },
      { series: accountSeries('catalog_429', a), count: 2 },
      { series: accountSeries('catalog_write_unanswered', a), count: 1 },
      { series: accountSeries('catalog_writes', 'http://catalog#bbbb'), count: 99 },
      { series: 'catalog_calls', count: 500 },
    ];
    expect(catalogEvidence(rows, a)).toEqual({
      windowMinutes: 5,
      writes: 8,
      serverErrors: { '500': 6, '503': 1 },
      unanswered: 1,
      calls: 12,
      rateLimited: 2,
    });
    expect(catalogEvidence(rows, 'http://catalog#cccc')).toBeNull();
  });
});
