import { type BenchStack, startBenchStack, waitFor } from './bench-stack.js';
import type { BenchContext } from './benchmark.js';
import { callsSince } from './catalog-state.js';
import { ratio, round } from './figures.js';
import { enqueueResyncs, recordCount, replayToPeer } from './resync.js';
import { createProducts } from './shop-fixtures.js';

export interface ResyncRunOptions {
  products: number;
  variants: number;
  /** The catalog's rate limit, and both systems' budget, per second. */
  catalogRate: number;
  /** Give up waiting after this long. */
  timeoutMs: number;
}

/** One system's figures for a whole-shop sync into an empty account. */
export interface ResyncFigures {
  records: number;
  calls: number;
  callRatio: number | null;
  elapsedMs: number;
  timeRatio: number | null;
  throttled: number;
  peakRssMb: number | null;
  rssBeforeMb: number | null;
}

/** The connector's figures, with its sync runs (from its sync records) and its concurrency. */
export interface ConnectorResyncFigures extends ResyncFigures {
  /** Peaks of the connector's own `process.memoryUsage()`, sampled every second during the resync. */
  peakHeapUsedMb: number | null;
  peakHeapTotalMb: number | null;
  peakExternalMb: number | null;
  runs: number;
  runP50Ms: number | null;
  runMaxMs: number | null;
  concurrency: number;
}

export interface ResyncRun {
  lowerBoundCalls: number;
  lowerBoundMs: number;
  shopifyThrottled: number;
  infrastructure: BenchStack['infrastructure'];
  connector: ConnectorResyncFigures;
  naive: ResyncFigures;
}

const MB = 1024 * 1024;

/**
 * A shop of `products` x `variants` (no images), made through the merchant API with nobody
 * subscribed, then synced whole into empty catalog accounts: by the connector (one `resync` job
 * per product through its SyncEnqueuer: the whole-shop resync is not in this checkout) and by
 * the naive peer (every product replayed through its webhook handler). Shared by `initial-sync`
 * and `memory`. The Shopify sandbox's cost bucket is raised so reading is never the bottleneck.
 */
export async function runResync(context: BenchContext, options: ResyncRunOptions): Promise<ResyncRun> {
  const stack = await startBenchStack({
    catalogRate: options.catalogRate,
    subscribe: false,
    connectorNodeArgs: context.connectorNodeArgs,
    shopify: { cost: { bucketSize: 1_000_000, restoreRate: 1_000_000 } },
  });
  try {
    const { products: n, variants: v } = options;
    context.log(`resync: creating ${n} products x ${v} variants in the Shopify sandbox`);
    const products = await createProducts(stack, n, v, 16);
    const expected = v > 1 ? n * (1 + v) : n;
    const lowerBoundMs = (expected / options.catalogRate) * 1000;
    context.log(
      `resync: ${expected} records to create, at least ${round(lowerBoundMs / 1000)} s at ${options.catalogRate}/s`,
    );

    const connectorStart = Date.now();
    const connectorRssBefore = stack.connector.rss();
    const heap = sampleMemory(stack);
    await enqueueResyncs(
      stack,
      products.map((p) => String(p.id)),
    );
    await waitFor(
      'the connector to create every record',
      async () =>
        recordCount(stack.catalog, stack.connectorAccount) >= expected && (await resynced(stack)) >= n,
      options.timeoutMs,
    );
    const connectorMs = Date.now() - connectorStart;
    const connectorCalls = await callsSince(stack.connectorAccount, connectorStart);
    const connectorRuns = await syncRuns(stack, connectorStart);
    const heapPeaks = await heap.stop();
    context.log(`resync: connector done in ${round(connectorMs / 1000)} s; now the naive peer`);

    const peer = stack.peer as NonNullable<BenchStack['peer']>;
    const peerStart = Date.now();
    const peerRssBefore = peer.rss();
    await replayToPeer(stack, products);
    await waitFor(
      'the peer to create every record',
      async () => recordCount(stack.catalog, stack.peerAccount) >= expected,
      options.timeoutMs,
    );
    const peerMs = Date.now() - peerStart;
    const peerCalls = await callsSince(stack.peerAccount, peerStart);
    const shopifyThrottled = (await stack.shopify.adminRequests()).filter(
      (r) => r.outcome === 'throttled',
    ).length;

    const figures = (
      account: typeof stack.connectorAccount,
      calls: typeof connectorCalls,
      elapsedMs: number,
      service: typeof peer,
      rssBefore: number | null,
    ): ResyncFigures => ({
      records: recordCount(stack.catalog, account),
      calls: calls.length,
      callRatio: ratio(calls.length, expected),
      elapsedMs,
      timeRatio: ratio(elapsedMs, lowerBoundMs),
      throttled: calls.filter((c) => c.status === 429).length,
      peakRssMb: mb(service.peakRss()),
      rssBeforeMb: mb(rssBefore),
    });
    return {
      lowerBoundCalls: expected,
      lowerBoundMs: Math.round(lowerBoundMs),
      shopifyThrottled,
      infrastructure: stack.infrastructure,
      connector: {
        ...figures(stack.connectorAccount, connectorCalls, connectorMs, stack.connector, connectorRssBefore),
        ...connectorRuns,
        ...heapPeaks,
        concurrency: Number(process.env.CONNECTOR_SYNC_CONCURRENCY ?? 4),
      },
      naive: figures(stack.peerAccount, peerCalls, peerMs, peer, peerRssBefore),
    };
  } finally {
    await stack.close();
  }
}

/** The connector's product sync runs since `since` (epoch ms): how many, p50 and max duration. */
export async function syncRuns(stack: BenchStack, since: number) {
  const { rows } = await stack.db.query<{ runs: string; p50: number | null; max: number | null }>(
    `SELECT count(*) AS runs,
            percentile_cont(0.5) WITHIN GROUP (ORDER BY extract(epoch FROM finished_at - started_at) * 1000) AS p50,
            max(extract(epoch FROM finished_at - started_at) * 1000) AS max
       FROM "${stack.schema}".sync_records WHERE started_at >= to_timestamp($1::double precision / 1000)`,
    [since],
  );
  const row = rows[0];
  const ms = (value: number | null | undefined) =>
    value === null || value === undefined ? null : Math.round(Number(value));
  return { runs: Number(row?.runs ?? 0), runP50Ms: ms(row?.p50), runMaxMs: ms(row?.max) };
}

/** Samples the connector's `process.memoryUsage()` every second (over IPC) until stopped; the peaks. */
function sampleMemory(stack: BenchStack) {
  const peaks = { heapUsed: 0, heapTotal: 0, external: 0 };
  let running = true;
  const loop = (async () => {
    while (running) {
      const usage = await stack.connector.request<NodeJS.MemoryUsage>({ type: 'memory' });
      peaks.heapUsed = Math.max(peaks.heapUsed, usage.heapUsed);
      peaks.heapTotal = Math.max(peaks.heapTotal, usage.heapTotal);
      peaks.external = Math.max(peaks.external, usage.external);
      await new Promise((resolve) => setTimeout(resolve, 1_000));
    }
  })();
  return {
    async stop() {
      running = false;
      await loop;
      return {
        peakHeapUsedMb: mb(peaks.heapUsed),
        peakHeapTotalMb: mb(peaks.heapTotal),
        peakExternalMb: mb(peaks.external),
      };
    },
  };
}

/** Products with a finished `resync` run in the connector's sync records. */
async function resynced(stack: BenchStack): Promise<number> {
  const { rows } = await stack.db.query<{ n: string }>(
    `SELECT count(DISTINCT product_id) AS n FROM "${stack.schema}".sync_records WHERE reason = 'resync'`,
  );
  return Number(rows[0]?.n ?? 0);
}

function mb(bytes: number | null): number | null {
  return bytes === null ? null : round(bytes / MB, 1);
}
