import { describe, expect, it } from 'vitest';
import { loadConnectorConfig } from '../config/connector.config.js';
import { earlyEnrichmentPollJobOptions, syncProductJobOptions } from './job-options.js';

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

  it('restarts the debounce of a job in its first wait, up to the maximum wait from its first delivery', () => {
    const payload = { shop: 'demo.myshopify.com', productId: '12', reason: 'webhook' } as const;
    const since = 1_000_000;
    const early = syncProductJobOptions(sync, payload, { since, now: since + 5_000 });
    expect(early.deduplication).toEqual({
      id: 'sync:demo.myshopify.com:12',
      keepLastIfActive: true,
      reschedule: true,
    });
    expect(early.delay).toBe(1_000);
    // 400 ms of the 30 s left: the job is moved to the end of the maximum wait, not past it.
    const late = syncProductJobOptions(sync, payload, { since, now: since + 29_600 });
    expect(late).toMatchObject({ deduplication: { reschedule: true }, delay: 400 });
    // The maximum wait is over: the delivery joins the job, which is due, and moves nothing.
    const over = syncProductJobOptions(sync, payload, { since, now: since + 30_000 });
    expect(over.deduplication).toEqual({ id: 'sync:demo.myshopify.com:12', keepLastIfActive: true });
    expect(over.delay).toBe(1_000);
  });

  it('restarts nothing for what is not an edit, nor without a job in its first wait', () => {
    const subject = { shop: 'demo.myshopify.com', productId: '12' };
    const waiting = { since: 1_000_000, now: 1_001_000 };
    for (const reason of ['sweep', 'resync', 'reconcile', 'drift'] as const) {
      const options = syncProductJobOptions(sync, { ...subject, reason }, waiting);
      expect(options.deduplication).not.toHaveProperty('reschedule');
      // Resync and reconciliation syncs have no debounce at all (see below).
      expect(options.delay).toBe(reason === 'resync' || reason === 'reconcile' ? 0 : 1_000);
    }
    const replay = syncProductJobOptions(sync, { ...subject, reason: 'replay', failureId: '7' }, waiting);
    expect(replay.deduplication).not.toHaveProperty('reschedule');
    expect(replay.delay).toBe(0);
    expect(syncProductJobOptions(sync, { ...subject, reason: 'webhook' }).deduplication).not.toHaveProperty(
      'reschedule',
    );
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

describe('early enrichment poll options', () => {
  it('hold the deduplication key until the poll is due, not until it ends, so the running poll can ask for the next', () => {
    const options = earlyEnrichmentPollJobOptions(5_000, 'poll-early-1');
    expect(options).toMatchObject({ jobId: 'poll-early-1', delay: 5_000, attempts: 1 });
    expect(options.deduplication).toEqual({ id: 'enrichment-poll:early', ttl: 5_000 });
  });
});
