import { describe, expect, it } from 'vitest';
import { shopPage } from './shop-page.js';

const STATES = ['failing', 'degraded', 'healthy'];
const shops = [
  { shop: 'b-ok.myshopify.com', state: 'healthy' },
  { shop: 'a-ok.myshopify.com', state: 'healthy' },
  { shop: 'z-broken.myshopify.com', state: 'failing' },
  { shop: 'c-slow.myshopify.com', state: 'degraded' },
  { shop: 'a-broken.myshopify.com', state: 'failing' },
];

describe('shopPage', () => {
  it('sorts worst first, then by domain, and counts every shop by state', () => {
    const page = shopPage(shops, STATES, {});
    expect(page.shops.map((s) => s.shop)).toEqual([
      'a-broken.myshopify.com',
      'z-broken.myshopify.com',
      'c-slow.myshopify.com',
      'a-ok.myshopify.com',
      'b-ok.myshopify.com',
    ]);
    expect(page).toMatchObject({ total: 5, offset: 0, limit: 50 });
    expect(page.counts).toEqual({ failing: 2, degraded: 1, healthy: 2 });
  });

  it('filters by state and by a part of the domain (any case); the counts stay those of every shop', () => {
    expect(shopPage(shops, STATES, { state: 'failing' }).shops.map((s) => s.shop)).toEqual([
      'a-broken.myshopify.com',
      'z-broken.myshopify.com',
    ]);
    const found = shopPage(shops, STATES, { q: ' OK.my ' });
    expect(found.shops.map((s) => s.shop)).toEqual(['a-ok.myshopify.com', 'b-ok.myshopify.com']);
    expect(found.total).toBe(2);
    expect(found.counts).toEqual({ failing: 2, degraded: 1, healthy: 2 });
    expect(shopPage(shops, STATES, { state: 'healthy', q: 'b-' }).shops.map((s) => s.shop)).toEqual([
      'b-ok.myshopify.com',
    ]);
  });

  it('pages by offset, or by page of limit shops (offset wins)', () => {
    expect(shopPage(shops, STATES, { limit: 2, page: 2 })).toMatchObject({
      shops: [{ shop: 'c-slow.myshopify.com' }, { shop: 'a-ok.myshopify.com' }],
      total: 5,
      offset: 2,
      limit: 2,
    });
    expect(shopPage(shops, STATES, { limit: 2, offset: 4, page: 1 }).shops.map((s) => s.shop)).toEqual([
      'b-ok.myshopify.com',
    ]);
    expect(shopPage(shops, STATES, { limit: 2, page: 9 }).shops).toEqual([]);
  });

  it('puts a state it does not rank last', () => {
    const page = shopPage([{ shop: 'x', state: 'odd' }, ...shops], STATES, { limit: 1, offset: 5 });
    expect(page.shops).toEqual([{ shop: 'x', state: 'odd' }]);
    expect(page.counts.odd).toBe(1);
  });
});
