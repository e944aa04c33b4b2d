import type { JobsOptions, Queue } from 'bullmq';
import { describe, expect, it } from 'vitest';
import { ManualClock } from '#lib/clock';
import { loadConnectorConfig } from '../platform/config/connector.config.js';
import type { SyncProductPayload } from '../platform/queues/job-payloads.js';
import { ShopPace } from './shop-pace.js';
import { SyncEnqueuer } from './sync-enqueuer.service.js';

const DEBOUNCE_MS = 1_000;
const config = loadConnectorConfig({
  CONNECTOR_SHOPS: 'demo.myshopify.com',
  CONNECTOR_SHOP_DEMO_ACCESS_TOKEN: 't',
  CONNECTOR_WEBHOOK_SECRETS: 's',
  CONNECTOR_CATALOG_URL: 'http://catalog',
  CONNECTOR_CATALOG_API_KEY: 'k',
  CONNECTOR_SYNC_DEBOUNCE_MS: String(DEBOUNCE_MS),
});
const shop = 'demo.myshopify.com';

interface FakeJob {
  id: string;
  delay: number;
  finishedOn?: number;
  attemptsStarted: number;
}

/**
 * A queue that keeps one job per deduplication id, as BullMQ does: an add while the product's
 * job is unfinished joins it, otherwise it makes a new job. `runDue` plays the worker, finishing
 * every job with no delay; `runAll` finishes every job. Counts and order only, never durations.
 */
function world(sync = config.sync) {
  const clock = new ManualClock();
  const jobs: FakeJob[] = [];
  const byDedup = new Map<string, FakeJob>();
  const queue = {
    async getDeduplicationJobId(id: string) {
      return byDedup.get(id)?.id ?? null;
    },
    async getJob(id: string) {
      const job = jobs.find((j) => j.id === id);
      return job && { ...job, priority: 0, attemptsMade: 0, timestamp: clock.now() };
    },
    async addBulk(adds: Array<{ data: SyncProductPayload; opts: JobsOptions }>) {
      for (const { opts } of adds) {
        const dedup = String(opts.deduplication?.id);
        const current = byDedup.get(dedup);
        if (current && current.finishedOn === undefined) continue;
        const job: FakeJob = { id: String(jobs.length + 1), delay: opts.delay ?? 0, attemptsStarted: 0 };
        jobs.push(job);
        byDedup.set(dedup, job);
      }
      return [];
    },
  };
  const enqueuer = new SyncEnqueuer(queue as unknown as Queue<SyncProductPayload>, sync, clock);
  const finish = (due: (job: FakeJob) => boolean) => {
    for (const job of jobs) {
      if (job.finishedOn !== undefined || !due(job)) continue;
      job.attemptsStarted = 1;
      job.finishedOn = clock.now();
    }
  };
  return {
    clock,
    jobs,
    deliver: (productId = '1', from = shop) => enqueuer.enqueue({ shop: from, productId, reason: 'webhook' }),
    runDue: () => finish((job) => job.delay === 0),
    runAll: () => finish(() => true),
    delays: () => jobs.map((job) => job.delay),
  };
}

describe('SyncEnqueuer: the leading edge of the debounce', () => {
  it('enqueues a lone delivery with no delay', async () => {
    const w = world();
    await w.deliver();
    expect(w.delays()).toEqual([0]);
  });

  it('turns a burst of deliveries within the period into one immediate and one trailing sync', async () => {
    const w = world();
    await w.deliver();
    w.runDue(); // the leading run, done before the next delivery comes
    for (let i = 0; i < 9; i++) {
      await w.clock.advance(DEBOUNCE_MS / 10);
      await w.deliver();
      w.runDue();
    }
    expect(w.delays()).toEqual([0, DEBOUNCE_MS]);
    w.runAll();
    expect(w.jobs.every((job) => job.finishedOn !== undefined)).toBe(true);
  });

  it('does not lead while a job is in flight, however long ago the last delivery', async () => {
    const w = world();
    await w.deliver();
    // The leading job has not run yet (busy workers): a delivery a period later joins it.
    await w.clock.advance(2 * DEBOUNCE_MS);
    await w.deliver();
    expect(w.delays()).toEqual([0]);
  });

  it('leads again once a period has passed since the last delivery', async () => {
    const w = world();
    await w.deliver();
    w.runDue();
    await w.clock.advance(DEBOUNCE_MS / 2);
    await w.deliver();
    await w.clock.advance(DEBOUNCE_MS);
    w.runAll(); // the trailing run
    await w.deliver();
    expect(w.delays()).toEqual([0, DEBOUNCE_MS, 0]);
  });

  it('counts the period from the last delivery: a product delivered without pause keeps trailing', async () => {
    const w = world();
    await w.deliver();
    w.runDue();
    for (let i = 0; i < 30; i++) {
      await w.clock.advance(DEBOUNCE_MS / 2);
      await w.deliver();
      // The trailing job runs whenever it is due (here: at once), as at its maximum wait.
      w.runAll();
    }
    // One leading job, then only trailing ones: no second leading run in the middle of a storm.
    expect(w.delays().filter((delay) => delay === 0)).toHaveLength(1);
  });

  it('never leads with CONNECTOR_SYNC_LEADING_EDGE=false', async () => {
    const w = world({ ...config.sync, leadingEdge: false });
    await w.deliver();
    expect(w.delays()).toEqual([DEBOUNCE_MS]);
  });

  it("leads once per shop in a storm: another product's delivery within a quarter of the period trails", async () => {
    const w = world();
    await w.deliver('1');
    await w.deliver('2');
    await w.deliver('3', 'other-shop.myshopify.com');
    expect(w.delays()).toEqual([0, DEBOUNCE_MS, 0]);
    // A storm over many products, a delivery every 10 ms round the products: still one lead.
    for (let i = 0; i < 100; i++) {
      await w.clock.advance(10);
      await w.deliver(String(5 + (i % 10)));
    }
    expect(w.delays().filter((delay) => delay === 0)).toHaveLength(2);
    // The shop quiet again, a lone edit of any product leads again.
    await w.clock.advance(DEBOUNCE_MS);
    w.runAll();
    await w.deliver('4');
    expect(w.delays().at(-1)).toBe(0);
  });

  it('leads each save of a merchant editing one product after another, a few hundred ms apart', async () => {
    const w = world();
    const quiet = ShopPace.forDebounce(DEBOUNCE_MS).quietMs;
    for (let i = 0; i < 5; i++) {
      await w.deliver(String(i + 1));
      w.runDue();
      await w.clock.advance(DEBOUNCE_MS / 3);
    }
    expect(quiet).toBeLessThan(DEBOUNCE_MS / 3);
    expect(w.delays()).toEqual([0, 0, 0, 0, 0]);
  });

  it('does not lead again after a pause within a storm while its last period holds more than 3 deliveries', async () => {
    const w = world();
    for (let i = 0; i < 20; i++) {
      await w.deliver(String(1 + (i % 10)));
      await w.clock.advance(10);
    }
    // A stalled sender: the shop quiet for more than a quarter of the period, not for all of it.
    await w.clock.advance(DEBOUNCE_MS / 2);
    await w.deliver('11');
    expect(w.delays().filter((delay) => delay === 0)).toHaveLength(1);
  });
});
