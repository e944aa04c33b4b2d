import { describe, expect, it } from 'vitest';
import { loadConnectorConfig } from '../platform/config/connector.config.js';

const base = {
  CONNECTOR_SHOPS: 'demo.myshopify.com',
  CONNECTOR_SHOP_DEMO_ACCESS_TOKEN: 't',
  CONNECTOR_WEBHOOK_SECRETS: 's',
  CONNECTOR_CATALOG_URL: 'http://catalog',
  CONNECTOR_CATALOG_API_KEY: 'k',
};

describe('the resync and reconcile configuration', () => {
  it('defaults to pages of 250, SKU against supplierSku, and a reconciliation every 6 hours', () => {
    const config = loadConnectorConfig(base);
    expect(config.resync).toEqual({
      pageSize: 250,
      bulkThreshold: 100,
      bulkPollMs: 1_000,
      linkMatch: { shopify: 'sku', catalog: 'supplierSku' },
    });
    expect(config.reconcile).toEqual({ intervalMs: 21_600_000, driftIntervalMs: 86_400_000 });
  });

  it('reads the variables, and refuses bad values naming them', () => {
    const config = loadConnectorConfig({
      ...base,
      CONNECTOR_RESYNC_PAGE_SIZE: '50',
      CONNECTOR_LINK_MATCH: 'barcode:gtin',
      CONNECTOR_RECONCILE_INTERVAL_MS: '60000',
      CONNECTOR_BULK_THRESHOLD: '10',
      CONNECTOR_BULK_POLL_MS: '200',
    });
    expect(config.resync).toEqual({
      pageSize: 50,
      bulkThreshold: 10,
      bulkPollMs: 200,
      linkMatch: { shopify: 'barcode', catalog: 'gtin' },
    });
    expect(config.reconcile.intervalMs).toBe(60_000);
    expect(() => loadConnectorConfig({ ...base, CONNECTOR_LINK_MATCH: 'title:name' })).toThrow(
      /CONNECTOR_LINK_MATCH must be one of sku:supplierSku, sku:gtin, barcode:supplierSku, barcode:gtin/,
    );
    expect(() => loadConnectorConfig({ ...base, CONNECTOR_RESYNC_PAGE_SIZE: '251' })).toThrow(
      /CONNECTOR_RESYNC_PAGE_SIZE/,
    );
    expect(() => loadConnectorConfig({ ...base, CONNECTOR_BULK_THRESHOLD: '250' })).toThrow(
      /CONNECTOR_BULK_THRESHOLD/,
    );
  });
});
