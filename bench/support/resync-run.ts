import { type BenchStack, startBenchStack, waitFor } from './bench-stack.js';
import type { BenchContext } from './benchmark.js';
import { callsSince } from './catalog-state.js';
import { ratio, round } from './figures.js';
import { adminResync, BENCH_ADMIN_TOKEN, type ResyncRunStatus, recordCount, replayToPeer } from './resync.js';
import { createProducts } from './shop-fixtures.js';

export interface ResyncRunOptions {
  products: number;
  variants: number;
  /** The catalog's rate limit, and both systems' budget, per second. */
  catalogRate: number;
  /** Give up waiting after this long. */
  timeoutMs: number;
  /**
   * `default`: the Shopify sandbox's own limits (Shopify's standard plan: 2,000 points, 100 a
   * second); `raised` (1,000,000 points, restored at 1,000,000/s): reading is never the bottleneck.
   */
  shopifyLimits?: 'default' | 'raised';
  /** Run the naive peer after the connector (default true); without, `naive` is null. */
  peer?: boolean;
}

/** The Shopify sandbox's default restore rate (points per second), Shopify's standard plan. */
const DEFAULT_RESTORE_RATE = 100;

/** One system's figures for a whole-shop sync into an empty account. */
export interface ResyncFigures {
  records: number;
  calls: number;
  callRatio: number | null;
  elapsedMs: number;
  timeRatio: number | null;
  /** From the start until the first catalog call, and from the first call to the last (the budget at work). */
  firstCallMs: number | null;
  callSpanMs: number | null;
  throttled: number;
  /** Calls per route (ids replaced by `:id`) and status: what any call past N(1+V) was. */
  callsByRoute: Record<string, number>;
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
  /** The connector's resync run as `GET /admin/resync/{id}` showed it at the end. */
  resyncRun: Pick<ResyncRunStatus, 'state' | 'pages' | 'listed' | 'done' | 'failed'>;
  lowerBoundMs: number;
  shopifyThrottled: number;
  /**
   * The connector's Admin GraphQL spending during its run (actual cost, from the sandbox's request
   * log): points, points per product, and how long they take at the restore rate. The run's bound
   * is the larger of that and the catalog's (`lowerBoundMs`).
   */
  shopify: {
    limits: 'default' | 'raised';
    restoreRate: number;
    requests: number;
    /** The requests by operation name (where the points go). */
    requestsByOperation: Record<string, number>;
    pointsSpent: number;
    pointsPerProduct: number | null;
    pointsBoundMs: number;
    boundMs: number;
    boundBy: 'catalog rate' | 'Shopify restore rate';
    timeOverBound: number | null;
  };
  infrastructure: BenchStack['infrastructure'];
  connector: ConnectorResyncFigures;
  /** Null when the run skipped the peer (`peer: false`). */
  naive: ResyncFigures | null;
}

const MB = 1024 * 1024;

/**
 * A shop of `products` x `variants` (no images), made through the merchant API with nobody
 * subscribed, then synced whole into empty catalog accounts: by the connector (its whole-shop
 * resync, `POST /admin/resync?shop=`: it pages through Shopify and enqueues one sync per
 * product; timed from that request until the catalog holds the last record) and by the naive
 * peer (every product replayed through its webhook handler). Shared by `initial-sync` and
 * `memory`. The Shopify sandbox's cost bucket is raised unless `shopifyLimits` is `default`.
 */
export async function runResync(context: BenchContext, options: ResyncRunOptions): Promise<ResyncRun> {
  const stack = await startBenchStack({
    catalogRate: options.catalogRate,
    subscribe: false,
    connectorNodeArgs: context.connectorNodeArgs,
    connectorEnv: { CONNECTOR_ADMIN_TOKEN: BENCH_ADMIN_TOKEN },
    peer: options.peer ?? true,
    ...(options.shopifyLimits === 'default'
      ? {}
      : { shopify: { cost: { bucketSize: 1_000_000, restoreRate: 1_000_000 } } }),
  });
  const restoreRate = options.shopifyLimits === 'default' ? DEFAULT_RESTORE_RATE : 1_000_000;
  try {
    const { products: n, variants: v } = options;
    context.log(`resync: creating ${n} products x ${v} variants in the Shopify sandbox`);
    const products = await createProducts(stack, n, v, 16);
    const expected = v > 1 ? n * (1 + v) : n;
    const lowerBoundMs = (expected / options.catalogRate) * 1000;
    context.log(
      `resync: ${expected} records to create, at least ${round(lowerBoundMs / 1000)} s at ${options.catalogRate}/s`,
    );

    const resync = adminResync(stack);
    const settings = await stack.connector.request<{ syncConcurrency: number }>({ type: 'settings' });
    const connectorStart = Date.now();
    const connectorRssBefore = stack.connector.rss();
    const heap = sampleMemory(stack);
    const { id: runId } = await resync.start();
    await waitFor(
      'the connector to create every record',
      async () => recordCount(stack.catalog, stack.connectorAccount) >= expected,
      options.timeoutMs,
    );
    const connectorMs = Date.now() - connectorStart;
    // Not timed: the run's last syncs report back (their records are already in the catalog).
    let resyncRun = await resync.show(runId);
    await waitFor(
      'the resync run to end',
      async () => {
        resyncRun = await resync.show(runId);
        if (resyncRun.state !== 'running') return true;
        await new Promise((resolve) => setTimeout(resolve, 250));
        return false;
      },
      options.timeoutMs,
    );
    if (resyncRun.state !== 'done') throw new Error(`resync run ${resyncRun.state}: ${resyncRun.error}`);
    const connectorCalls = await callsSince(stack.connectorAccount, connectorStart);
    // The peer reads nothing from Shopify: every GraphQL request so far is the connector's.
    const reads = (await stack.shopify.adminRequests({ api: 'graphql' })).filter(
      (r) => Date.parse(r.at) >= connectorStart,
    );
    const pointsSpent = reads.reduce((sum, r) => sum + (r.actualQueryCost ?? 0), 0);
    const connectorRuns = await syncRuns(stack, connectorStart);
    const heapPeaks = await heap.stop();
    context.log(`resync: connector done in ${round(connectorMs / 1000)} s`);
    const peerRun = stack.peer
      ? await runPeer(stack, stack.peer, products, expected, options.timeoutMs)
      : null;
    // The connector's Admin GraphQL answers only: the fixtures' merchant REST calls have a
    // request limit of their own (their 429s are the bench's, not the connector's).
    const shopifyThrottled = reads.filter((r) => r.outcome === 'throttled').length;

    const figures = (
      account: typeof stack.connectorAccount,
      calls: typeof connectorCalls,
      elapsedMs: number,
      service: NonNullable<BenchStack['peer']>,
      rssBefore: number | null,
      start: number,
    ): ResyncFigures => ({
      records: recordCount(stack.catalog, account),
      calls: calls.length,
      callRatio: ratio(calls.length, expected),
      elapsedMs,
      timeRatio: ratio(elapsedMs, lowerBoundMs),
      ...callTimes(calls, start),
      throttled: calls.filter((c) => c.status === 429).length,
      callsByRoute: byRoute(calls),
      peakRssMb: mb(service.peakRss()),
      rssBeforeMb: mb(rssBefore),
    });
    return {
      lowerBoundCalls: expected,
      resyncRun: {
        state: resyncRun.state,
        pages: resyncRun.pages,
        listed: resyncRun.listed,
        done: resyncRun.done,
        failed: resyncRun.failed,
      },
      lowerBoundMs: Math.round(lowerBoundMs),
      shopifyThrottled,
      shopify: shopifyFigures(options, restoreRate, reads, pointsSpent, lowerBoundMs, connectorMs),
      infrastructure: stack.infrastructure,
      connector: {
        ...figures(
          stack.connectorAccount,
          connectorCalls,
          connectorMs,
          stack.connector,
          connectorRssBefore,
          connectorStart,
        ),
        ...connectorRuns,
        ...heapPeaks,
        concurrency: settings.syncConcurrency,
      },
      naive:
        stack.peer && peerRun
          ? figures(
              stack.peerAccount,
              peerRun.calls,
              peerRun.ms,
              stack.peer,
              peerRun.rssBefore,
              peerRun.start,
            )
          : null,
    };
  } finally {
    await stack.close();
  }
}

/** The Shopify side of a run's bound: points spent ÷ restore rate, against the catalog's bound. */
function shopifyFigures(
  options: ResyncRunOptions,
  restoreRate: number,
  reads: ReadonlyArray<{ operationName: string | null }>,
  pointsSpent: number,
  catalogBoundMs: number,
  elapsedMs: number,
): ResyncRun['shopify'] {
  const pointsBoundMs = (pointsSpent / restoreRate) * 1000;
  const boundMs = Math.max(catalogBoundMs, pointsBoundMs);
  return {
    limits: options.shopifyLimits ?? 'raised',
    restoreRate,
    requests: reads.length,
    requestsByOperation: countBy(reads.map((r) => r.operationName ?? '(anonymous)')),
    pointsSpent,
    pointsPerProduct: ratio(pointsSpent, options.products),
    pointsBoundMs: Math.round(pointsBoundMs),
    boundMs: Math.round(boundMs),
    boundBy: pointsBoundMs > catalogBoundMs ? 'Shopify restore rate' : 'catalog rate',
    timeOverBound: ratio(elapsedMs, boundMs),
  };
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

function byRoute(calls: ReadonlyArray<{ method: string; path: string; status: number }>) {
  const counts: Record<string, number> = {};
  for (const call of calls) {
    const key = `${call.method} ${call.path.replace(/\/[0-9a-zA-Z_-]{12,}/g, '/:id')} ${call.status}`;
    counts[key] = (counts[key] ?? 0) + 1;
  }
  return counts;
}

/** When the calls were made, relative to `start` (epoch ms). */
function callTimes(calls: ReadonlyArray<{ time: number }>, start: number) {
  if (calls.length === 0) return { firstCallMs: null, callSpanMs: null };
  const times = calls.map((c) => c.time);
  const first = Math.min(...times);
  return { firstCallMs: first - start, callSpanMs: Math.max(...times) - first };
}

function mb(bytes: number | null): number | null {
  return bytes === null ? null : round(bytes / MB, 1);
}

function countBy(names: readonly string[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const name of names) counts[name] = (counts[name] ?? 0) + 1;
  return counts;
}

/** The naive peer's turn: every product replayed through its webhook handler, timed. */
async function runPeer(
  stack: BenchStack,
  peer: NonNullable<BenchStack['peer']>,
  products: Parameters<typeof replayToPeer>[1],
  expected: number,
  timeoutMs: number,
) {
  const start = Date.now();
  const rssBefore = peer.rss();
  await replayToPeer(stack, products);
  await waitFor(
    'the peer to create every record',
    async () => recordCount(stack.catalog, stack.peerAccount) >= expected,
    timeoutMs,
  );
  return { start, rssBefore, ms: Date.now() - start, calls: await callsSince(stack.peerAccount, start) };
}
