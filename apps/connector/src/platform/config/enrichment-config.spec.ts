import { describe, expect, it } from 'vitest';
import { ConfigError } from '#lib/config';
import { loadConnectorConfig } from './connector.config.js';

const BASE = {
  CONNECTOR_SHOPS: 'demo.myshopify.com',
  CONNECTOR_SHOP_DEMO_ACCESS_TOKEN: 'shpat_secret_token',
  CONNECTOR_WEBHOOK_SECRETS: 'hook-secret',
  CONNECTOR_CATALOG_URL: 'http://127.0.0.1:4010/',
  CONNECTOR_CATALOG_API_KEY: 'catalog-secret-key',
};

describe('the write-back configuration', () => {
  it('has the documented defaults', () => {
    expect(loadConnectorConfig(BASE).enrichment).toEqual({
      pollIntervalMs: 60_000,
      activePollIntervalMs: 5_000,
      activeWindowMs: 600_000,
      pollBudgetShare: 0.1,
      overlapMs: 300_000,
      maxCallsPerPoll: 40,
      watchlistIntervalMs: 0,
      rewalkIntervalMs: 3_600_000,
      watchlistMaxAgeMs: 30 * 24 * 3_600_000,
      snapshotMaxAgeMs: 1_800_000,
      pushConcurrency: 2,
      pushAttempts: 8,
      pushBackoffMs: 2_000,
      lockRetryMs: 100,
    });
  });

  it('reads the adaptive poll settings at boot, and refuses a budget share outside 0-1', () => {
    const config = loadConnectorConfig({
      ...BASE,
      CONNECTOR_ENRICHMENT_POLL_ACTIVE_INTERVAL_MS: '2000',
      CONNECTOR_ENRICHMENT_POLL_ACTIVE_WINDOW_MS: '60000',
      CONNECTOR_ENRICHMENT_POLL_BUDGET_SHARE: '0.25',
    }).enrichment;
    expect(config).toMatchObject({
      activePollIntervalMs: 2_000,
      activeWindowMs: 60_000,
      pollBudgetShare: 0.25,
    });
    expect(() => loadConnectorConfig({ ...BASE, CONNECTOR_ENRICHMENT_POLL_BUDGET_SHARE: '1.5' })).toThrow(
      ConfigError,
    );
    expect(() =>
      loadConnectorConfig({ ...BASE, CONNECTOR_ENRICHMENT_POLL_ACTIVE_INTERVAL_MS: '10' }),
    ).toThrow(ConfigError);
  });

  it('reads the snapshot age a push may use, and refuses a negative one', () => {
    const read = (value: string) =>
      loadConnectorConfig({ ...BASE, CONNECTOR_ENRICHMENT_SNAPSHOT_MAX_AGE_MS: value }).enrichment
        .snapshotMaxAgeMs;
    expect(read('0')).toBe(0);
    expect(read('600000')).toBe(600_000);
    expect(() => read('-1')).toThrow(ConfigError);
  });

  it('reads how often the mapped records are re-walked, and refuses a negative interval', () => {
    const read = (value: string) =>
      loadConnectorConfig({ ...BASE, CONNECTOR_ENRICHMENT_REWALK_INTERVAL_MS: value }).enrichment
        .rewalkIntervalMs;
    expect(read('0')).toBe(0);
    expect(read('86400000')).toBe(86_400_000);
    expect(() => read('-1')).toThrow(ConfigError);
    expect(() => read('soon')).toThrow(ConfigError);
  });

  it('refuses a pool too small for the sync and push jobs together', () => {
    const attempt = () =>
      loadConnectorConfig({
        ...BASE,
        CONNECTOR_DATABASE_POOL_SIZE: '8',
        CONNECTOR_SYNC_CONCURRENCY: '4',
        CONNECTOR_ENRICHMENT_PUSH_CONCURRENCY: '3',
      });
    expect(attempt).toThrow(ConfigError);
    expect(() => attempt()).toThrow(
      'CONNECTOR_DATABASE_POOL_SIZE (8) must exceed CONNECTOR_SYNC_CONCURRENCY plus CONNECTOR_ENRICHMENT_PUSH_CONCURRENCY (7) by at least 2',
    );
  });
});
