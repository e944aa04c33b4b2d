import { describe, expect, it } from 'vitest';
import { isAllowedUrl, parseAllowedSource, parseAllowlist, shopifyCdnAllowlist } from './allowlist.js';

const allowed = (url: string, entries: string[]) => isAllowedUrl(new URL(url), parseAllowlist(entries));

describe('image host allowlist', () => {
  it('parses hosts, path prefixes, wildcards and origins', () => {
    expect(parseAllowedSource('cdn.shopify.com')).toEqual({
      protocol: 'https:',
      host: 'cdn.shopify.com',
      port: null,
      pathPrefix: null,
    });
    expect(parseAllowedSource('Shop.myshopify.com/cdn/')).toMatchObject({
      host: 'shop.myshopify.com',
      pathPrefix: '/cdn/',
    });
    expect(parseAllowedSource('*.example.com')).toMatchObject({ host: '*.example.com' });
    expect(parseAllowedSource('http://127.0.0.1:4020')).toEqual({
      protocol: 'http:',
      host: '127.0.0.1',
      port: 4020,
      pathPrefix: null,
    });
  });

  it('refuses entries that would be ambiguous or unsafe', () => {
    for (const entry of [
      'ftp://cdn.shopify.com',
      'https://u:p@cdn.shopify.com',
      'cdn.shopify.com/?a=1',
      '',
      '*.',
    ]) {
      expect(() => parseAllowedSource(entry), entry).toThrow(/image host allowlist/);
    }
  });

  it("allows Shopify's CDN over https only, on its default port", () => {
    const list = ['cdn.shopify.com'];
    expect(allowed('https://cdn.shopify.com/s/files/1/0/files/front.png?v=1', list)).toBe(true);
    expect(allowed('https://CDN.Shopify.com./s/files/a.png', list)).toBe(true);
    expect(allowed('http://cdn.shopify.com/s/files/a.png', list)).toBe(false);
    expect(allowed('https://cdn.shopify.com:8443/a.png', list)).toBe(false);
    expect(allowed('https://cdn.shopify.com.evil.example/a.png', list)).toBe(false);
    expect(allowed('https://evilcdn.shopify.com/a.png', list)).toBe(false);
    expect(allowed('https://user@cdn.shopify.com/a.png', list)).toBe(false);
  });

  it("allows the shop's storefront domain under /cdn/ only", () => {
    const list = shopifyCdnAllowlist('demo.myshopify.com');
    const ok = (url: string) => isAllowedUrl(new URL(url), list);
    expect(ok('https://demo.myshopify.com/cdn/shop/files/front.png?v=1')).toBe(true);
    expect(ok('https://demo.myshopify.com/admin/api/2026-07/graphql.json')).toBe(false);
    expect(ok('https://other.myshopify.com/cdn/shop/files/front.png')).toBe(false);
    expect(ok('https://cdn.shopify.com/s/files/front.png')).toBe(true);
  });

  it('matches wildcards on subdomains only', () => {
    expect(allowed('https://a.example.com/x.png', ['*.example.com'])).toBe(true);
    expect(allowed('https://a.b.example.com/x.png', ['*.example.com'])).toBe(true);
    expect(allowed('https://example.com/x.png', ['*.example.com'])).toBe(false);
    expect(allowed('https://badexample.com/x.png', ['*.example.com'])).toBe(false);
  });
});
