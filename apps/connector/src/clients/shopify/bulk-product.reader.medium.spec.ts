import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SystemClock } from '#lib/clock';
import { type ShopifySandboxHarness, sandboxFetch, startShopifySandbox } from '#testing/shopify-sandbox';
import { loadConnectorConfig } from '../../platform/config/connector.config.js';
import { OneOffShopTokens } from '../../shops/one-off-shop-tokens.js';
import { ShopFetchRoutes } from '../../shops/shop-fetch-routes.service.js';
import { Shops } from '../../shops/shops.js';
import { TokenGrants } from '../../shops/token-grants.service.js';
import { BulkProductReader, type BulkReadReport } from './bulk-product.reader.js';
import type { CanonicalProduct } from './canonical-product.js';
import { ShopifyAdmin } from './shopify-admin.service.js';

// A whole-shop bulk read against the Shopify sandbox (real 2026-07 schema, bulk operations on its
// clock): every product with its variants and images, a dead link or a failed run tried once
// more, then given up (the caller reads pages).
describe('bulk product reader against the Shopify sandbox', () => {
  let h: ShopifySandboxHarness;
  let shopify: ShopifyAdmin;
  let downloads = 0;
  let breakDownloads = 0;

  beforeAll(async () => {
    h = await startShopifySandbox({ bulk: { stepMs: 20, objectsPerStep: 5 } });
    const config = loadConnectorConfig({
      CONNECTOR_SHOPS: h.shopDomain,
      CONNECTOR_SHOP_DEMO_ACCESS_TOKEN: h.accessToken,
      CONNECTOR_WEBHOOK_SECRETS: h.appSecret,
      CONNECTOR_CATALOG_URL: 'http://catalog',
      CONNECTOR_CATALOG_API_KEY: 'k',
    });
    const base = sandboxFetch(h.url);
    const fetchFn: typeof fetch = async (input, init) => {
      const url = typeof input === 'string' || input instanceof URL ? String(input) : input.url;
      if (url.includes('/bulk-operation-outputs/')) {
        downloads++;
        // A link that expired: storage's own refusal.
        if (breakDownloads > 0) {
          breakDownloads--;
          return new Response('<Error><Code>ExpiredToken</Code></Error>', { status: 400 });
        }
      }
      return base(input, init);
    };
    const clock = new SystemClock();
    const shops = new Shops(config.shops);
    routes = new ShopFetchRoutes(shops, config.shopify, fetchFn);
    const grants = new TokenGrants(config.http, config.shopify);
    const tokens = new OneOffShopTokens(config.shops, grants, () => clock.now());
    shopify = new ShopifyAdmin(config.http, config.shopify, shops, tokens, grants, routes, clock);
    reader = new BulkProductReader(shopify, clock, { ...config.resync, bulkPollMs: 20 }, fetchFn);
    for (let i = 0; i < 12; i++) {
      const created = await h.merchant('POST', 'products.json', {
        product: {
          title: `Bulk ${i}`,
          options: [{ name: 'Size' }],
          variants: [
            { option1: 'S', sku: `B${i}-S`, price: '10.00' },
            { option1: 'M', sku: `B${i}-M`, price: '11.00' },
          ],
          images: i === 0 ? [{ src: 'https://example.com/a.png', alt: 'front' }] : [],
        },
      });
      expect(created.status).toBe(201);
    }
  });
  let reader: BulkProductReader;
  let routes: ShopFetchRoutes | undefined;

  afterAll(async () => {
    routes?.onModuleDestroy();
    await h?.close();
  });

  async function readAll(): Promise<{ report: BulkReadReport; products: CanonicalProduct[] }> {
    const products: CanonicalProduct[] = [];
    const report = await reader.read(h.shopDomain, async (batch) => {
      products.push(...batch);
    });
    return { report, products };
  }

  it('reads every product with its variants and images through one bulk operation', async () => {
    const { report, products } = await readAll();
    expect(report.ok).toBe(true);
    expect(report.attempts).toHaveLength(1);
    const ours = products.filter((p) => p.title.startsWith('Bulk '));
    expect(ours).toHaveLength(12);
    const first = ours.find((p) => p.title === 'Bulk 0');
    expect(first?.variants.map((v) => v.sku)).toEqual(['B0-S', 'B0-M']);
    expect(first?.variantsCount).toBe(2);
    expect(first?.media).toHaveLength(1);
    expect(first?.media?.[0]?.alt).toBe('front');
  });

  it('lists every product id through a bulk query of ids', async () => {
    const ids: string[] = [];
    const report = await reader.readIds(h.shopDomain, async (batch) => {
      ids.push(...batch);
    });
    expect(report.ok).toBe(true);
    const { products } = await readAll();
    expect(ids.sort()).toEqual(products.map((p) => p.legacyResourceId).sort());
    expect(ids.every((id) => /^\d+$/.test(id))).toBe(true);
  });

  it('tries a new operation once when the link has expired', async () => {
    breakDownloads = 1;
    const before = downloads;
    const { report, products } = await readAll();
    expect(downloads - before).toBe(2);
    expect(report.ok).toBe(true);
    expect(report.attempts.map((a) => a.outcome)).toEqual(['download:400', 'completed']);
    expect(products.filter((p) => p.title.startsWith('Bulk '))).toHaveLength(12);
  });

  it('gives up after a second failure (a run that fails half way, twice)', async () => {
    await h.control('PUT', `shops/${h.shopDomain}/bulk-faults`, { failHalfway: true });
    try {
      const { report, products } = await readAll();
      expect(report.ok).toBe(false);
      expect(report.attempts.map((a) => a.outcome)).toEqual([
        'FAILED:INTERNAL_SERVER_ERROR',
        'FAILED:INTERNAL_SERVER_ERROR',
      ]);
      expect(report.attempts.every((a) => a.operationId?.startsWith('gid://shopify/BulkOperation/'))).toBe(
        true,
      );
      expect(products).toEqual([]);
    } finally {
      await h.control('PUT', `shops/${h.shopDomain}/bulk-faults`, { failHalfway: null });
    }
  });
});
