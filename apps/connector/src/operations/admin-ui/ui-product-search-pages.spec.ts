import { describe, expect, it } from 'vitest';
import { mergeFound, productsPage } from './ui-product-search-pages.js';
import { titleInPayloadHead, titleKey } from './ui-product-titles.service.js';

const SHOP = 'demo.myshopify.com';
const NOW = Date.parse('2026-05-01T12:00:00Z');

describe('the products page', () => {
  it('answers a search with one list: the connector’s products and Shopify’s, each once', () => {
    const found = mergeFound(
      [{ shop: SHOP, productId: '1' }],
      [
        { shop: SHOP, productId: '1', title: 'Demo shirt' },
        { shop: SHOP, productId: '2', title: 'Demo mug' },
      ],
      {
        shop: SHOP,
        matches: [
          { productId: '2', title: 'Demo mug', handle: 'demo-mug' },
          { productId: '3', title: 'Demo cap', handle: 'demo-cap' },
        ],
      },
      new Map(),
    );
    expect(found).toEqual([
      { shop: SHOP, productId: '1', title: 'Demo shirt', known: true, inShopify: false },
      { shop: SHOP, productId: '2', title: 'Demo mug', known: true, inShopify: true },
      { shop: SHOP, productId: '3', title: 'Demo cap', known: false, inShopify: true },
    ]);
    const html = productsPage(
      {
        shops: [SHOP],
        query: 'Demo',
        shop: null,
        found,
        shopify: { shop: SHOP, error: null },
        recent: null,
        titles: new Map(),
        now: NOW,
      },
      'csrf',
    );
    expect(html).toContain('<p role="status">3 products found for <strong>Demo</strong>.</p>');
    expect(html).not.toContain('No product found');
    expect(html.match(/<li data-product=/g)).toHaveLength(3);
  });

  it('says "No product found" only when neither side found one, and why Shopify was not asked', () => {
    const html = productsPage(
      {
        shops: ['a.myshopify.com', 'b.myshopify.com'],
        query: 'nothing',
        shop: null,
        found: [],
        shopify: { shop: null, error: null },
        recent: null,
        titles: new Map(),
        now: NOW,
      },
      'csrf',
    );
    expect(html).toContain('No product found for <strong>nothing</strong>.');
    expect(html).toContain('Shopify was not searched: choose a shop');
  });

  it('lists the recently synced products with titles and times, a page at a time', () => {
    const html = productsPage(
      {
        shops: [SHOP],
        query: '',
        shop: null,
        found: null,
        shopify: null,
        recent: {
          products: [{ shop: SHOP, productId: '7', syncedAt: new Date(NOW - 5 * 60_000), deleted: false }],
          page: 2,
          more: true,
        },
        titles: new Map([[titleKey(SHOP, '7'), 'Linen <shirt>']]),
        now: NOW,
      },
      'csrf',
    );
    expect(html).toContain('<h2>Recently synced</h2>');
    expect(html).toContain(
      `<a class="product" href="/admin/ui/products/7?shop=${SHOP}">Linen &lt;shirt&gt;</a> <span class="muted product-id">7</span>`,
    );
    expect(html).toContain('>5 min ago</time>');
    expect(html).toContain('href="/admin/ui/products?page=1" rel="prev">Newer</a>');
    expect(html).toContain('href="/admin/ui/products?page=3" rel="next">Older</a>');
  });
});

describe('titleInPayloadHead', () => {
  it('reads the product’s title, the first in the payload, unescaped', () => {
    const head =
      '{"admin_graphql_api_id":"gid://shopify/Product/1","title":"Caf\\u00e9 \\"Noir\\" mug","variants":[{"title":"Default Title"}]';
    expect(titleInPayloadHead(Buffer.from(head))).toBe('Café "Noir" mug');
  });

  it('gives null for no title, an empty one, or one cut off by the head’s end', () => {
    expect(titleInPayloadHead('{"id":1}')).toBeNull();
    expect(titleInPayloadHead('{"title":""}')).toBeNull();
    expect(titleInPayloadHead('{"title":"Cut off here')).toBeNull();
  });
});
