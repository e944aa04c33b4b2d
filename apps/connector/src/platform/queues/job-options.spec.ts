import { describe, expect, it } from 'vitest';
import { loadConnectorConfig } from '../config/connector.config.js';
import { earlyEnrichmentPollJobOptions, pushLane, syncLane, syncProductJobOptions } from './job-options.js';
import type { SyncProductPayload } from './job-payloads.js';
import { lanePriority } from './shop-lanes.js';

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
    // By age alone: a count makes every finish read all the kept jobs on the PostgreSQL backend.
    expect(options.removeOnComplete).toEqual({ age: 600 });
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
      // Bulk syncs (resync, reconciliation, drift) have no debounce at all (see below).
      expect(options.delay).toBe(reason === 'sweep' ? 1_000 : 0);
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

  it("puts a shop's worth of syncs in the bulk lane, behind every live one", () => {
    const subject = { shop: 'demo.myshopify.com', productId: '12' };
    const priority = (reason: SyncProductPayload['reason'], turn = 0) =>
      syncProductJobOptions(sync, { ...subject, reason }, undefined, false, turn).priority;
    for (const reason of ['resync', 'reconcile', 'scope', 'drift', 'go-live'] as const) {
      expect(syncLane({ reason })).toBe('bulk');
      expect(priority(reason)).toBe(1_000_000);
    }
    for (const reason of ['webhook', 'sweep', 'replay', 'operator'] as const) {
      expect(syncLane({ reason })).toBe('live');
      // A quiet shop's live request has no priority at all: ahead of every other.
      expect(priority(reason)).toBeUndefined();
    }
    // A request's turn in its shop's lane is added to the lane's base (`ShopLanes`).
    expect(priority('webhook', 3)).toBe(3);
    expect(priority('resync', 3)).toBe(1_000_003);
    // However long a shop's line, its live requests stay ahead of every bulk one.
    expect(priority('webhook', 5_000_000)).toBe(999_999);
    expect(priority('resync', 5_000_000)).toBe(1_999_999);
  });

  it("gives pushes and media jobs the same lanes: a go-live push, a resync's images are bulk", () => {
    expect(lanePriority('live', 0)).toBe(0);
    expect(lanePriority('bulk', 0)).toBe(1_000_000);
    expect(pushLane({ reason: 'go-live' })).toBe('bulk');
    for (const reason of ['poll', 'sync', 'replay', 'overwrite'] as const)
      expect(pushLane({ reason })).toBe('live');
  });

  it('starts bulk syncs without the debounce delay (nothing to coalesce)', () => {
    const subject = { shop: 'demo.myshopify.com', productId: '12' };
    expect(syncProductJobOptions(sync, { ...subject, reason: 'resync' }).delay).toBe(0);
    expect(syncProductJobOptions(sync, { ...subject, reason: 'reconcile' }).delay).toBe(0);
    expect(syncProductJobOptions(sync, { ...subject, reason: 'drift' }).delay).toBe(0);
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
