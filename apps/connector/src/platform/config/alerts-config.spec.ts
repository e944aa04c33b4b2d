import { describe, expect, it } from 'vitest';
import { loadConnectorConfig } from './connector.config.js';

const base = {
  CONNECTOR_SHOPS: 'demo.myshopify.com',
  CONNECTOR_SHOP_DEMO_ACCESS_TOKEN: 't',
  CONNECTOR_WEBHOOK_SECRETS: 's',
  CONNECTOR_CATALOG_URL: 'http://catalog',
  CONNECTOR_CATALOG_API_KEY: 'k',
};

describe('the alerts configuration', () => {
  it('defaults to the documented look, debounce, attempts and history', () => {
    expect(loadConnectorConfig(base).alerts).toEqual({
      checkIntervalMs: 30_000,
      debounceMs: 120_000,
      attempts: 8,
      backoffMs: 10_000,
      timeoutMs: 10_000,
      historyMs: 30 * 86_400_000,
    });
  });

  it('reads each variable, and refuses a bad value at boot naming it', () => {
    const config = loadConnectorConfig({
      ...base,
      CONNECTOR_ALERT_CHECK_INTERVAL_MS: '0',
      CONNECTOR_ALERT_DEBOUNCE_MS: '5000',
      CONNECTOR_ALERT_ATTEMPTS: '3',
      CONNECTOR_ALERT_HISTORY_DAYS: '0.5',
    }).alerts;
    expect(config).toMatchObject({
      checkIntervalMs: 0,
      debounceMs: 5_000,
      attempts: 3,
      historyMs: 43_200_000,
    });
    for (const [name, bad] of [
      ['CONNECTOR_ALERT_DEBOUNCE_MS', 'soon'],
      ['CONNECTOR_ALERT_ATTEMPTS', '0'],
      ['CONNECTOR_ALERT_BACKOFF_MS', '0'],
      ['CONNECTOR_ALERT_TIMEOUT_MS', '50'],
      ['CONNECTOR_ALERT_HISTORY_DAYS', '-1'],
    ] as const) {
      expect(() => loadConnectorConfig({ ...base, [name]: bad }), name).toThrow(new RegExp(name));
    }
  });
});
