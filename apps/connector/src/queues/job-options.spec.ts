import { describe, expect, it } from 'vitest';
import { loadConnectorConfig } from '../config/connector.config.js';
import { syncProductJobOptions } from './job-options.js';

const sync = loadConnectorConfig({
  CONNECTOR_SHOPS: 'demo.myshopify.com',
  CONNECTOR_SHOP_DEMO_ACCESS_TOKEN: 't',
  CONNECTOR_WEBHOOK_SECRETS: 's',
  CONNECTOR_CATALOG_URL: 'http://catalog',
  CONNECTOR_CATALOG_API_KEY: 'k',
}).sync;

describe('syncProductJobOptions', () => {
  it('coalesces deliveries per product, keeping one more run for a delivery during a run', () => {
    const options = syncProductJobOptions(sync, {
      shop: 'demo.myshopify.com',
      productId: '12',
      reason: 'webhook',
    });
    expect(options).toMatchObject({
      deduplication: { id: 'sync:demo.myshopify.com:12', keepLastIfActive: true },
      delay: 1_000,
      attempts: 8,
      backoff: { type: 'exponential', delay: 2_000 },
    });
    expect(options.jobId).toBeUndefined();
    expect(options.removeOnComplete).toBeDefined();
    expect(options.removeOnFail).toBeDefined();
  });

  it('gives a replay its own id and no delay, so a waiting job never absorbs it', () => {
    const options = syncProductJobOptions(sync, {
      shop: 'demo.myshopify.com',
      productId: '12',
      reason: 'replay',
      failureId: '7',
    });
    expect(options.deduplication?.id).toBe('replay:7:demo.myshopify.com:12');
    expect(options.delay).toBe(0);
  });

  it('puts resync and reconciliation syncs behind the others', () => {
    const subject = { shop: 'demo.myshopify.com', productId: '12' };
    expect(syncProductJobOptions(sync, { ...subject, reason: 'resync' }).priority).toBe(10);
    expect(syncProductJobOptions(sync, { ...subject, reason: 'reconcile' }).priority).toBe(10);
    expect(syncProductJobOptions(sync, { ...subject, reason: 'webhook' }).priority).toBeUndefined();
    expect(syncProductJobOptions(sync, { ...subject, reason: 'drift' }).priority).toBeUndefined();
  });

  it('starts resync and reconciliation syncs without the debounce delay (nothing to coalesce)', () => {
    const subject = { shop: 'demo.myshopify.com', productId: '12' };
    expect(syncProductJobOptions(sync, { ...subject, reason: 'resync' }).delay).toBe(0);
    expect(syncProductJobOptions(sync, { ...subject, reason: 'reconcile' }).delay).toBe(0);
    expect(syncProductJobOptions(sync, { ...subject, reason: 'webhook' }).delay).toBe(sync.debounceMs);
  });
});
