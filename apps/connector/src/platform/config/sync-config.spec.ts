import { describe, expect, it } from 'vitest';
import { ConfigError } from '#lib/config';
import { loadConnectorConfig } from './connector.config.js';

const base = {
  CONNECTOR_SHOPS: 'demo.myshopify.com',
  CONNECTOR_SHOP_DEMO_ACCESS_TOKEN: 't',
  CONNECTOR_WEBHOOK_SECRETS: 's',
  CONNECTOR_CATALOG_URL: 'http://catalog',
  CONNECTOR_CATALOG_API_KEY: 'k',
};

describe('the sync debounce settings', () => {
  it('waits 1 s after the last delivery, at most 30 s after the first, by default', () => {
    expect(loadConnectorConfig(base).sync).toMatchObject({
      debounceMs: 1_000,
      debounceMaxMs: 30_000,
      leadingEdge: true,
    });
    expect(loadConnectorConfig({ ...base, CONNECTOR_SYNC_LEADING_EDGE: 'false' }).sync.leadingEdge).toBe(
      false,
    );
  });

  it('reads both, and keeps a debounce longer than 30 s bootable without a maximum', () => {
    const both = loadConnectorConfig({
      ...base,
      CONNECTOR_SYNC_DEBOUNCE_MS: '250',
      CONNECTOR_SYNC_DEBOUNCE_MAX_MS: '2000',
    });
    expect(both.sync).toMatchObject({ debounceMs: 250, debounceMaxMs: 2_000 });
    const long = loadConnectorConfig({ ...base, CONNECTOR_SYNC_DEBOUNCE_MS: '60000' });
    expect(long.sync).toMatchObject({ debounceMs: 60_000, debounceMaxMs: 60_000 });
  });

  it('refuses a maximum wait shorter than the debounce', () => {
    let problems: string[] = [];
    try {
      loadConnectorConfig({
        ...base,
        CONNECTOR_SYNC_DEBOUNCE_MS: '5000',
        CONNECTOR_SYNC_DEBOUNCE_MAX_MS: '4000',
      });
    } catch (error) {
      expect(error).toBeInstanceOf(ConfigError);
      problems = (error as ConfigError).problems;
    }
    expect(problems).toEqual([expect.stringContaining('CONNECTOR_SYNC_DEBOUNCE_MAX_MS')]);
  });
});

describe("the lock retry (no 500 ms clock on a delivery's path)", () => {
  it('tries a busy product again after 100 ms, for the sync and the write-back', () => {
    const config = loadConnectorConfig(base);
    expect(config.sync.lockRetryMs).toBe(100);
    expect(config.enrichment.lockRetryMs).toBe(100);
  });
});

describe('the walk of scoped collections', () => {
  it('runs every hour by default, and takes CONNECTOR_SCOPE_WALK_INTERVAL_MS of at least 1 s', () => {
    expect(loadConnectorConfig(base).sync.scopeWalkIntervalMs).toBe(3_600_000);
    expect(
      loadConnectorConfig({ ...base, CONNECTOR_SCOPE_WALK_INTERVAL_MS: '60000' }).sync.scopeWalkIntervalMs,
    ).toBe(60_000);
    expect(() => loadConnectorConfig({ ...base, CONNECTOR_SCOPE_WALK_INTERVAL_MS: '10' })).toThrow(
      /CONNECTOR_SCOPE_WALK_INTERVAL_MS/,
    );
  });
});

describe('the scheduled drift report', () => {
  it('runs daily by default, 0 turns it off, and an interval under a minute is refused', () => {
    expect(loadConnectorConfig(base).reconcile.driftIntervalMs).toBe(86_400_000);
    expect(loadConnectorConfig({ ...base, CONNECTOR_DRIFT_INTERVAL_MS: '0' }).reconcile.driftIntervalMs).toBe(
      0,
    );
    expect(
      loadConnectorConfig({ ...base, CONNECTOR_DRIFT_INTERVAL_MS: '3600000' }).reconcile.driftIntervalMs,
    ).toBe(3_600_000);
    expect(() => loadConnectorConfig({ ...base, CONNECTOR_DRIFT_INTERVAL_MS: '500' })).toThrow(
      /CONNECTOR_DRIFT_INTERVAL_MS must be 0/,
    );
    expect(() => loadConnectorConfig({ ...base, CONNECTOR_DRIFT_INTERVAL_MS: '-1' })).toThrow(
      /CONNECTOR_DRIFT_INTERVAL_MS/,
    );
  });
});
