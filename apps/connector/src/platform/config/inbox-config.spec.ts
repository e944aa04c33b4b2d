import { describe, expect, it } from 'vitest';
import { loadConnectorConfig } from './connector.config.js';

const base = {
  CONNECTOR_SHOPS: 'demo.myshopify.com',
  CONNECTOR_SHOP_DEMO_ACCESS_TOKEN: 't',
  CONNECTOR_WEBHOOK_SECRETS: 's',
  CONNECTOR_CATALOG_URL: 'http://catalog',
  CONNECTOR_CATALOG_API_KEY: 'k',
};

describe('the inbox configuration', () => {
  it('defaults to enqueue batches every 100 ms and the documented sweeper', () => {
    expect(loadConnectorConfig(base).inbox).toEqual({
      sweepIntervalMs: 60_000,
      sweepAfterMs: 300_000,
      enqueueFlushMs: 100,
    });
  });

  it('reads CONNECTOR_INBOX_ENQUEUE_FLUSH_MS, and refuses values out of range naming it', () => {
    expect(loadConnectorConfig({ ...base, CONNECTOR_INBOX_ENQUEUE_FLUSH_MS: '0' }).inbox.enqueueFlushMs).toBe(
      0,
    );
    expect(
      loadConnectorConfig({ ...base, CONNECTOR_INBOX_ENQUEUE_FLUSH_MS: '25' }).inbox.enqueueFlushMs,
    ).toBe(25);
    for (const bad of ['-1', '1001', 'soon']) {
      expect(() => loadConnectorConfig({ ...base, CONNECTOR_INBOX_ENQUEUE_FLUSH_MS: bad })).toThrow(
        /CONNECTOR_INBOX_ENQUEUE_FLUSH_MS/,
      );
    }
  });
});
