import { setTimeout as sleep } from 'node:timers/promises';
import type { Queue, Worker } from 'bullmq';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { SystemClock } from '#lib/clock';
import { queueTestKit, uniqueId } from '#lib/testing';
import { loadConnectorConfig } from '../platform/config/connector.config.js';
import { syncDeduplicationId } from '../platform/queues/job-options.js';
import type { SyncProductPayload } from '../platform/queues/job-payloads.js';
import { QueueName } from '../platform/queues/queue-names.js';
import { SyncEnqueuer } from './sync-enqueuer.service.js';

const BASE_ENV = {
  CONNECTOR_SHOPS: 'demo.myshopify.com',
  CONNECTOR_SHOP_DEMO_ACCESS_TOKEN: 't',
  CONNECTOR_WEBHOOK_SECRETS: 's',
  CONNECTOR_CATALOG_URL: 'http://catalog',
  CONNECTOR_CATALOG_API_KEY: 'k',
};

/** What happened, in order: an enqueue returned, or a run started (with its payload's reason). */
type Event = { kind: 'delivered' } | { kind: 'run'; reason: string };

/**
 * The restarting debounce against the real queue backend (Redis when REDIS_URL is set): the
 * enqueuer as the webhook path calls it, a worker counting runs. Delays are small; what is
 * asserted is counts and order, never durations.
 */
describe('SyncEnqueuer: a debounce that restarts with each delivery, up to a maximum wait', () => {
  const closers: Array<() => Promise<unknown>> = [];
  afterAll(async () => {
    for (const close of closers.reverse()) await close();
  });

  /** A queue of its own, the enqueuer on it, and a worker running `work` and logging each run. */
  function setup(env: Record<string, string>, work: (events: Event[]) => Promise<void> = async () => {}) {
    const kit = queueTestKit(inject('queueBackend'));
    const config = loadConnectorConfig({ ...BASE_ENV, ...env });
    const queue = kit.queue<SyncProductPayload>(QueueName.SYNC_PRODUCT) as Queue<SyncProductPayload>;
    const events: Event[] = [];
    const order: string[] = [];
    const worker = kit.worker<SyncProductPayload, void>(QueueName.SYNC_PRODUCT, async (data) => {
      events.push({ kind: 'run', reason: data.reason });
      order.push(data.productId);
      await work(events);
    }) as Worker<SyncProductPayload, void>;
    closers.push(
      () => queue.close(),
      () => worker.close(),
    );
    const enqueuer = new SyncEnqueuer(queue, config.sync, new SystemClock());
    const payload: SyncProductPayload = {
      shop: 'demo.myshopify.com',
      productId: uniqueId('p'),
      reason: 'webhook',
    };
    const deliver = async (reason: SyncProductPayload['reason'] = 'webhook', bulk = false) => {
      if (bulk) await enqueuer.enqueueMany([{ ...payload, reason }]);
      else await enqueuer.enqueue({ ...payload, reason });
      events.push({ kind: 'delivered' });
    };
    /** `count` deliveries, `pauseMs` apart (so it lasts at least `count` x `pauseMs`). */
    const storm = async (count: number, pauseMs: number, bulk = false) => {
      for (let i = 0; i < count; i++) {
        await deliver('webhook', bulk);
        await sleep(pauseMs);
      }
    };
    const runs = () => events.filter((e) => e.kind === 'run').length;
    /** Waits until `runs` runs have started and nothing is left waiting, delayed or running. */
    const settled = async (count: number) => {
      for (let i = 0; i < 600; i++) {
        const left = await queue.getJobCounts('waiting', 'delayed', 'prioritized', 'active');
        if (runs() >= count && Object.values(left).every((n) => n === 0)) return;
        await sleep(50);
      }
      throw new Error(`not settled: ${runs()} runs of ${count}`);
    };
    return { queue, worker, enqueuer, events, order, payload, deliver, storm, runs, settled };
  }

  /** A product's job whose first run failed, now waiting out a 10-minute back-off. */
  async function inBackOff(reason: SyncProductPayload['reason']) {
    const t = setup(
      {
        CONNECTOR_SYNC_DEBOUNCE_MS: '100',
        CONNECTOR_SYNC_DEBOUNCE_MAX_MS: '1000',
        CONNECTOR_SYNC_BACKOFF_MS: '600000',
      },
      async () => {
        throw new Error('catalog down');
      },
    );
    const failed = new Promise<void>((resolve) => t.worker.once('failed', () => resolve()));
    await t.deliver(reason);
    await failed;
    const id = String(await t.queue.getDeduplicationJobId(syncDeduplicationId(t.payload)));
    const before = await t.queue.getJob(id);
    return { t, id, before };
  }

  it('turns 30 deliveries 100 ms apart (over 3 s, debounce 1.5 s) into a leading run and one after the last', async () => {
    const t = setup({ CONNECTOR_SYNC_DEBOUNCE_MS: '1500', CONNECTOR_SYNC_DEBOUNCE_MAX_MS: '60000' });
    await t.storm(30, 100);
    await t.settled(2);
    // A fixed debounce would have run it during the storm too; without a leading edge, once.
    expect(t.runs()).toBe(2);
    expect(t.events.at(-1)).toEqual({ kind: 'run', reason: 'webhook' });
    // The leading run started before the storm's last delivery; the trailing one after it.
    const lastDelivery = t.events.map((e) => e.kind).lastIndexOf('delivered');
    expect(t.events.findIndex((e) => e.kind === 'run')).toBeLessThan(lastDelivery);
  });

  it("restarts the debounce the same way through enqueueMany (the intake batcher's path)", async () => {
    const t = setup({ CONNECTOR_SYNC_DEBOUNCE_MS: '1500', CONNECTOR_SYNC_DEBOUNCE_MAX_MS: '60000' });
    await t.storm(30, 100, true);
    await t.settled(2);
    expect(t.runs()).toBe(2);
    expect(t.events.at(-1)).toEqual({ kind: 'run', reason: 'webhook' });
  });

  it('runs a lone delivery at once (the leading edge), however long the debounce', async () => {
    const t = setup({ CONNECTOR_SYNC_DEBOUNCE_MS: '60000', CONNECTOR_SYNC_DEBOUNCE_MAX_MS: '120000' });
    await t.deliver();
    // Settled with nothing delayed: the job never waited out the 60 s debounce.
    await t.settled(1);
    expect(t.events.map((e) => e.kind)).toEqual(['delivered', 'run']);
  });

  it('still runs a product delivered without pause once per maximum wait', async () => {
    const t = setup({ CONNECTOR_SYNC_DEBOUNCE_MS: '1000', CONNECTOR_SYNC_DEBOUNCE_MAX_MS: '1500' });
    await t.storm(50, 100);
    const duringStorm = t.runs();
    await t.settled(duringStorm + 1);
    // Unbounded, the storm would hold every run off until it ends; over 5 s at 1.5 s: 2 or more.
    expect(duringStorm).toBeGreaterThanOrEqual(2);
    expect(t.events.at(-1)).toEqual({ kind: 'run', reason: 'webhook' });
    expect(t.runs()).toBe(duringStorm + 1);
  });

  it('turns deliveries that arrive while the job runs into exactly one more run', async () => {
    let release = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    const t = setup(
      { CONNECTOR_SYNC_DEBOUNCE_MS: '200', CONNECTOR_SYNC_DEBOUNCE_MAX_MS: '2000' },
      async (events) => {
        if (events.filter((e) => e.kind === 'run').length === 1) await held;
      },
    );
    await t.deliver();
    while (t.runs() === 0) await sleep(20);
    for (let i = 0; i < 3; i++) await t.deliver();
    release();
    await t.settled(2);
    expect(t.runs()).toBe(2);
    expect(t.events.map((e) => e.kind)).toEqual([
      'delivered',
      'run',
      'delivered',
      'delivered',
      'delivered',
      'run',
    ]);
  });

  it("raises a waiting resync job a delivery joins to the webhook's priority, still a resync", async () => {
    const t = setup({ CONNECTOR_SYNC_DEBOUNCE_MS: '60000', CONNECTOR_SYNC_DEBOUNCE_MAX_MS: '120000' });
    // A resync starts without a debounce; with the workers busy (paused here) it waits its turn,
    // behind another product's resync job queued first.
    await t.worker.pause(true);
    const other = { ...t.payload, productId: uniqueId('p'), reason: 'resync' as const };
    await t.enqueuer.enqueue(other);
    await t.deliver('resync');
    const id = await t.queue.getDeduplicationJobId(syncDeduplicationId(t.payload));
    // The bulk lane: the shop's second resync request of the minute (`lanePriority`).
    expect((await t.queue.getJob(String(id)))?.priority).toBe(1_000_001);
    await t.deliver();
    await t.deliver();
    expect(await t.queue.getDeduplicationJobId(syncDeduplicationId(t.payload))).toBe(id);
    const job = await t.queue.getJob(String(id));
    // The same job, still a resync (it plans from a canonical read), now ahead of the bulk work.
    expect(job?.data.reason).toBe('resync');
    expect(job?.priority).toBe(0);
    expect(await job?.getState()).toBe('waiting');
    expect(await t.queue.getJobCounts('waiting', 'delayed', 'prioritized')).toEqual({
      waiting: 1,
      delayed: 0,
      prioritized: 1,
    });
    // It runs first, then the other product's resync job.
    await t.worker.resume();
    await t.settled(2);
    expect(t.order).toEqual([t.payload.productId, other.productId]);
  });

  it('leaves a joined resync job in its back-off when raising it', async () => {
    const { t, id, before } = await inBackOff('resync');
    expect(await before?.getState()).toBe('delayed');
    await t.deliver();
    const after = await t.queue.getJob(id);
    expect(after?.data.reason).toBe('resync');
    expect(after?.priority).toBe(0);
    expect(await after?.getState()).toBe('delayed');
    expect(after?.attemptsMade).toBe(1);
    expect(after?.delay).toBe(before?.delay);
    expect(t.runs()).toBe(1);
  });

  it('leaves a retry in its back-off: a delivery neither brings it forward nor resets its attempts', async () => {
    const { t, id, before } = await inBackOff('webhook');
    expect(before?.attemptsMade).toBe(1);
    expect(await before?.getState()).toBe('delayed');
    await t.deliver();
    await t.deliver();
    const after = await t.queue.getJob(id);
    expect(after?.attemptsMade).toBe(1);
    expect(await after?.getState()).toBe('delayed');
    // The back-off's delay, not the debounce a reschedule would have set.
    expect(after?.delay).toBe(before?.delay);
    expect(after?.delay).toBeGreaterThanOrEqual(600_000);
    expect(t.runs()).toBe(1);
  });
});
