import type { Queue } from 'bullmq';
import { describe, expect, it } from 'vitest';
import { ManualClock } from '#lib/clock';
import { loadConnectorConfig } from '../platform/config/connector.config.js';
import { logContext } from '../platform/http/log-context.js';
import { syncProductJobOptions } from '../platform/queues/job-options.js';
import type { SyncProductPayload } from '../platform/queues/job-payloads.js';
import { JobName } from '../platform/queues/queue-names.js';
import { EnqueueBatcher } from './enqueue-batcher.service.js';
import type { InboxRepository } from './inbox.repository.js';
import { SyncEnqueuer } from './sync-enqueuer.service.js';

const config = loadConnectorConfig({
  CONNECTOR_SHOPS: 'demo.myshopify.com',
  CONNECTOR_SHOP_DEMO_ACCESS_TOKEN: 't',
  CONNECTOR_WEBHOOK_SECRETS: 's',
  CONNECTOR_CATALOG_URL: 'http://catalog',
  CONNECTOR_CATALOG_API_KEY: 'k',
  CONNECTOR_INBOX_ENQUEUE_FLUSH_MS: '20',
});
const shop = 'demo.myshopify.com';

interface BulkJob {
  name: string;
  data: SyncProductPayload;
  opts: unknown;
}

/** A queue that records bulk adds (and fails the next `failures` of them), and an inbox that records marks. */
function world(failures = 0) {
  const clock = new ManualClock();
  const bulks: BulkJob[][] = [];
  const marked: string[][] = [];
  const contexts: Array<string | undefined> = [];
  let toFail = failures;
  let release: (() => void) | null = null;
  const state = { holdNext: false };
  const queue = {
    // No job waits in this fake queue: nothing to restart (`readJoinedSync` reads these first).
    async getDeduplicationJobId() {
      return null;
    },
    async addBulk(jobs: BulkJob[]) {
      bulks.push(jobs);
      contexts.push(logContext.current()?.correlationId);
      if (state.holdNext) {
        state.holdNext = false;
        await new Promise<void>((resolve) => {
          release = resolve;
        });
      }
      if (toFail > 0) {
        toFail--;
        throw new Error('queue unavailable');
      }
      return [];
    },
  };
  const repository = {
    async markEnqueued(ids: readonly string[]) {
      marked.push([...ids]);
    },
  };
  const enqueuer = new SyncEnqueuer(queue as unknown as Queue<SyncProductPayload>, config.sync, clock);
  const batcher = new EnqueueBatcher(enqueuer, repository as unknown as InboxRepository, clock, config.inbox);
  return {
    clock,
    batcher,
    bulks,
    marked,
    contexts,
    state,
    release: () => release?.(),
    products: (bulk: BulkJob[] | undefined) => (bulk ?? []).map((job) => job.data.productId),
  };
}

describe('EnqueueBatcher', () => {
  it('enqueues each product of a batch once, with the sync options, and marks every delivery', async () => {
    const w = world();
    for (const [id, productId] of [
      ['1', '11'],
      ['2', '12'],
      ['3', '11'],
      ['4', '11'],
    ] as const) {
      expect(w.batcher.add({ id, shop, productId })).toBe(true);
    }
    await w.clock.advance(19);
    expect(w.bulks).toEqual([]);
    await w.clock.advance(1);
    await w.batcher.flush();
    expect(w.bulks).toHaveLength(1);
    const payload = { shop, productId: '11', reason: 'webhook' } as const;
    expect(w.bulks[0]?.[0]).toEqual({
      name: JobName.SYNC_PRODUCT,
      data: payload,
      // The product's first delivery: no job in flight, none before it, so it leads (no delay).
      opts: syncProductJobOptions(config.sync, payload, undefined, true),
    });
    expect(w.products(w.bulks[0])).toEqual(['11', '12']);
    expect(w.marked).toEqual([['1', '3', '4', '2']]);
    expect(w.batcher.pending).toBe(0);
  });

  it('flushes a full batch without waiting for the interval', async () => {
    const w = world();
    for (let i = 0; i < 500; i++) w.batcher.add({ id: String(i), shop, productId: String(1000 + (i % 7)) });
    // One turn of the event loop (no clock advance): the enqueue reads the waiting jobs first.
    await new Promise((resolve) => setImmediate(resolve));
    expect(w.bulks).toHaveLength(1);
    expect(w.products(w.bulks[0])).toHaveLength(7);
    await w.batcher.flush();
    expect(w.marked[0]).toHaveLength(500);
  });

  it('runs one flush at a time: what arrives meanwhile is the next batch', async () => {
    const w = world();
    w.state.holdNext = true;
    w.batcher.add({ id: '1', shop, productId: '21' });
    await w.clock.advance(20);
    expect(w.bulks).toHaveLength(1);
    w.batcher.add({ id: '2', shop, productId: '21' });
    w.batcher.add({ id: '3', shop, productId: '22' });
    await w.clock.advance(40);
    expect(w.bulks).toHaveLength(1);
    w.release();
    await w.batcher.flush();
    expect(w.bulks.map(w.products)).toEqual([['21'], ['21', '22']]);
    expect(w.marked).toEqual([['1'], ['2', '3']]);
  });

  it('paces the flushes: what arrives during a quick flush waits an interval from its start, not the end', async () => {
    const w = world();
    w.state.holdNext = true;
    w.batcher.add({ id: '1', shop, productId: '71' });
    await w.clock.advance(20); // the first flush begins (t=20) and is held
    w.batcher.add({ id: '2', shop, productId: '72' });
    await w.clock.advance(5);
    w.release(); // it ends at t=25
    await new Promise((resolve) => setImmediate(resolve));
    expect(w.bulks).toHaveLength(1);
    await w.clock.advance(14); // t=39: not yet an interval since the first began
    expect(w.bulks).toHaveLength(1);
    await w.clock.advance(1); // t=40
    await w.batcher.flush();
    expect(w.bulks.map(w.products)).toEqual([['71'], ['72']]);
  });

  it('flushes what it holds on shutdown, and refuses deliveries once shut down', async () => {
    const w = world();
    w.batcher.add({ id: '1', shop, productId: '31' });
    w.batcher.add({ id: '2', shop, productId: '32' });
    await w.batcher.beforeApplicationShutdown();
    expect(w.bulks.map(w.products)).toEqual([['31', '32']]);
    expect(w.marked).toEqual([['1', '2']]);
    // A request still finishing during the shutdown is flushed at once.
    expect(w.batcher.add({ id: '3', shop, productId: '33' })).toBe(true);
    await w.batcher.onApplicationShutdown();
    expect(w.bulks.map(w.products)).toEqual([['31', '32'], ['33']]);
    expect(w.batcher.add({ id: '4', shop, productId: '34' })).toBe(false);
    expect(w.batcher.pending).toBe(0);
  });

  it('retries a failed enqueue once, then leaves the rows unmarked for the sweeper', async () => {
    const w = world(2);
    w.batcher.add({ id: '1', shop, productId: '41' });
    await w.clock.advance(20);
    await w.clock.advance(20);
    await w.batcher.flush();
    expect(w.bulks).toHaveLength(2);
    expect(w.marked).toEqual([]);
    expect(w.batcher.pending).toBe(0);
    // The next batch is not held back by the failed one.
    w.batcher.add({ id: '2', shop, productId: '42' });
    await w.clock.advance(20);
    await w.batcher.flush();
    expect(w.marked).toEqual([['2']]);
  });

  it("flushes in a log context of its own, not the request's that started the wait", async () => {
    const w = world();
    logContext.run({ correlationId: 'req-1', webhookId: 'w-1' }, () => {
      w.batcher.add({ id: '1', shop, productId: '61' });
    });
    await w.clock.advance(20);
    await w.batcher.flush();
    expect(w.contexts).toEqual(['inbox:enqueue']);
  });

  it("takes other shops' deliveries while one shop's storm fills its share of what is held", async () => {
    const w = world();
    // The queue stops answering: the first flush hangs, and deliveries pile up.
    w.state.holdNext = true;
    w.batcher.add({ id: 'first', shop, productId: '70' });
    await w.clock.advance(20);
    expect(w.bulks).toHaveLength(1);
    const big = 'big.myshopify.com';
    const taken = Array.from({ length: 5_001 }, (_, i) =>
      w.batcher.add({ id: `a${i}`, shop: big, productId: String(i) }),
    );
    // A quarter of what may be held goes to one shop; its overflow stays stored, for the sweeper.
    expect(taken.filter(Boolean)).toHaveLength(5_000);
    expect(taken.at(-1)).toBe(false);
    expect(w.batcher.add({ id: 'b1', shop, productId: '71' })).toBe(true);
    w.release();
    await w.batcher.flush();
    expect(w.marked.flat()).toContain('b1');
    expect(w.marked.flat()).not.toContain('a5000');
    // Once flushed, the big shop's deliveries are taken again.
    expect(w.batcher.add({ id: 'a-next', shop: big, productId: '1' })).toBe(true);
  });

  it('marks the rows when the retry succeeds', async () => {
    const w = world(1);
    w.batcher.add({ id: '1', shop, productId: '51' });
    await w.clock.advance(20);
    await w.clock.advance(20);
    await w.batcher.flush();
    expect(w.bulks).toHaveLength(2);
    expect(w.marked).toEqual([['1']]);
  });
});
