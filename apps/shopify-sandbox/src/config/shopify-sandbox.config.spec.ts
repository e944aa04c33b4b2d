import { describe, expect, it } from 'vitest';
import { ConfigError } from '#lib/config';
import { loadShopifySandboxConfig } from './shopify-sandbox.config.js';

describe('loadShopifySandboxConfig', () => {
  it('defaults to one demo shop on port 4020 with Shopify-like limits', () => {
    const config = loadShopifySandboxConfig({});
    expect(config).toMatchObject({
      port: 4020,
      host: '127.0.0.1',
      shops: [{ domain: 'demo.myshopify.com', accessToken: 'shpat_sandbox_demo_token' }],
      webhooks: { retryDelaysMs: [1_000, 5_000, 30_000, 120_000], timeoutMs: 5_000 },
      cost: { bucketSize: 2_000, restoreRate: 100, maxQueryCost: 1_000 },
      leniency: { metafieldValues: false, globalIds: false, productLimits: false, verbatimValues: false },
      publicUrl: undefined,
    });
  });

  it('defaults to the faithful behaviours: a DST time zone, merged updates, create+update, no-op updates, mixed empties', () => {
    const config = loadShopifySandboxConfig({});
    expect(config).toMatchObject({
      timeZone: 'America/New_York',
      apiVersions: ['2026-01', '2026-04', '2026-07', '2026-10'],
      emptyFields: 'mixed',
      webhooks: { apiVersion: '2026-07', mergeWindowMs: 300, updateAfterCreate: true, noopUpdates: true },
    });
  });

  it('runs bulk queries as Shopify does by default, and reads the bulk switches by name', () => {
    expect(loadShopifySandboxConfig({}).bulk).toEqual({
      stepMs: 200,
      objectsPerStep: 500,
      urlTtlMs: 7 * 24 * 60 * 60 * 1000,
      maxConcurrentQueries: 5,
      failHalfway: false,
    });
    const config = loadShopifySandboxConfig({
      SHOPIFY_SANDBOX_BULK_STEP_MS: '5',
      SHOPIFY_SANDBOX_BULK_OBJECTS_PER_STEP: '10',
      SHOPIFY_SANDBOX_BULK_URL_TTL_MS: '60000',
      SHOPIFY_SANDBOX_BULK_MAX_CONCURRENT_QUERIES: '1',
      SHOPIFY_SANDBOX_BULK_FAIL_HALFWAY: 'true',
    });
    expect(config.bulk).toEqual({
      stepMs: 5,
      objectsPerStep: 10,
      urlTtlMs: 60_000,
      maxConcurrentQueries: 1,
      failHalfway: true,
    });
    expect(() => loadShopifySandboxConfig({ SHOPIFY_SANDBOX_BULK_URL_TTL_MS: '0' })).toThrow(ConfigError);
  });

  it('reads the kinder switches and versions by name', () => {
    const config = loadShopifySandboxConfig({
      SHOPIFY_SANDBOX_TIME_ZONE: 'Europe/Paris',
      SHOPIFY_SANDBOX_API_VERSIONS: '2026-10,2024-07',
      SHOPIFY_SANDBOX_EMPTY_FIELDS: 'empty-string',
      SHOPIFY_SANDBOX_WEBHOOK_API_VERSION: '2024-01',
      SHOPIFY_SANDBOX_WEBHOOK_MERGE_WINDOW_MS: '0',
      SHOPIFY_SANDBOX_WEBHOOK_UPDATE_AFTER_CREATE: 'false',
      SHOPIFY_SANDBOX_WEBHOOK_NOOP_UPDATES: 'false',
    });
    expect(config).toMatchObject({
      timeZone: 'Europe/Paris',
      apiVersions: ['2024-07', '2026-10'],
      emptyFields: 'empty-string',
      webhooks: { apiVersion: '2024-01', mergeWindowMs: 0, updateAfterCreate: false, noopUpdates: false },
    });
  });

  it('refuses a fixed offset, an unknown zone, malformed versions and a future webhook version', () => {
    const problems = (env: Record<string, string>) => {
      try {
        loadShopifySandboxConfig(env);
        return '';
      } catch (error) {
        return (error as ConfigError).problems.join('\n');
      }
    };
    expect(problems({ SHOPIFY_SANDBOX_UTC_OFFSET_MINUTES: '-300' })).toContain(
      'SHOPIFY_SANDBOX_UTC_OFFSET_MINUTES was replaced by SHOPIFY_SANDBOX_TIME_ZONE',
    );
    expect(problems({ SHOPIFY_SANDBOX_TIME_ZONE: 'EST5' })).toContain('SHOPIFY_SANDBOX_TIME_ZONE');
    expect(problems({ SHOPIFY_SANDBOX_API_VERSIONS: '2026-07,latest' })).toContain('not: latest');
    expect(problems({ SHOPIFY_SANDBOX_WEBHOOK_API_VERSION: '2027-01' })).toContain(
      'newer than every supported',
    );
    expect(problems({ SHOPIFY_SANDBOX_EMPTY_FIELDS: 'blank' })).toContain('SHOPIFY_SANDBOX_EMPTY_FIELDS');
  });

  it('reads shops, delays and limits from the environment', () => {
    const config = loadShopifySandboxConfig({
      SHOPIFY_SANDBOX_PORT: '0',
      SHOPIFY_SANDBOX_SHOPS: 'a.myshopify.com:tok_a, b.myshopify.com:tok:b',
      SHOPIFY_SANDBOX_WEBHOOK_RETRY_DELAYS_MS: '10,20,40',
      SHOPIFY_SANDBOX_COST_BUCKET_SIZE: '100',
      SHOPIFY_SANDBOX_COST_RESTORE_RATE: '2.5',
      SHOPIFY_SANDBOX_COST_MAX_QUERY_COST: '50',
      SHOPIFY_SANDBOX_LENIENT: 'metafield-values, product-limits',
      SHOPIFY_SANDBOX_PUBLIC_URL: 'https://sandbox.example.com/',
    });
    expect(config.shops).toEqual([
      { domain: 'a.myshopify.com', accessToken: 'tok_a' },
      { domain: 'b.myshopify.com', accessToken: 'tok:b' },
    ]);
    expect(config.webhooks.retryDelaysMs).toEqual([10, 20, 40]);
    expect(config.cost).toEqual({ bucketSize: 100, restoreRate: 2.5, maxQueryCost: 50 });
    expect(config.leniency).toEqual({
      metafieldValues: true,
      globalIds: false,
      productLimits: true,
      verbatimValues: false,
    });
    expect(config.publicUrl).toBe('https://sandbox.example.com');
    expect(
      loadShopifySandboxConfig({ SHOPIFY_SANDBOX_WEBHOOK_RETRY_DELAYS_MS: 'none' }).webhooks.retryDelaysMs,
    ).toEqual([]);
    expect(loadShopifySandboxConfig({ SHOPIFY_SANDBOX_LENIENT: 'none' }).leniency).toEqual({
      metafieldValues: false,
      globalIds: false,
      productLimits: false,
      verbatimValues: false,
    });
    expect(
      loadShopifySandboxConfig({ SHOPIFY_SANDBOX_LENIENT: 'verbatim-values' }).leniency.verbatimValues,
    ).toBe(true);
  });

  it('names every bad variable', () => {
    try {
      loadShopifySandboxConfig({
        SHOPIFY_SANDBOX_SHOPS: 'a.myshopify.com:t,b.myshopify.com:t',
        SHOPIFY_SANDBOX_WEBHOOK_RETRY_DELAYS_MS: '1s,5s',
        SHOPIFY_SANDBOX_PUBLIC_URL: 'not a url',
        SHOPIFY_SANDBOX_LENIENT: 'everything',
      });
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(ConfigError);
      const problems = (error as ConfigError).problems.join('\n');
      expect(problems).toContain('SHOPIFY_SANDBOX_SHOPS gives two shops the same access token');
      expect(problems).toContain('SHOPIFY_SANDBOX_WEBHOOK_RETRY_DELAYS_MS');
      expect(problems).toContain('SHOPIFY_SANDBOX_PUBLIC_URL');
      expect(problems).toContain(
        'SHOPIFY_SANDBOX_LENIENT must list some of metafield-values, global-ids, product-limits',
      );
    }
  });

  it('refuses a shop that is not a myshopify.com domain', () => {
    expect(() => loadShopifySandboxConfig({ SHOPIFY_SANDBOX_SHOPS: 'example.com:tok' })).toThrow(
      /SHOPIFY_SANDBOX_SHOPS/,
    );
  });
});
