import type { BenchContext, Benchmark, BenchResult } from './support/benchmark.js';
import { ratio } from './support/figures.js';
import { runResync } from './support/resync-run.js';

/**
 * `initial-sync`: N products (300) of V variants (3), no images, synced into an empty catalog
 * account at a raised catalog rate (40 per second, the connector's budget matching it), at the
 * Shopify sandbox's default limits (standard plan). Catalog calls / N(1+V), elapsed time /
 * (N(1+V) / rate) and / the bound (the larger of that and Shopify points spent / restore rate),
 * 429s, THROTTLED, peak RSS; the same for the naive peer.
 */
export const initialSync: Benchmark = {
  name: 'initial-sync',
  summary: 'a whole shop into an empty account: calls / N(1+V), time / (N(1+V) / rate), 429s, peak RSS',
  async run(context: BenchContext): Promise<BenchResult> {
    const products = Number(process.env.BENCH_N ?? (context.smoke ? 5 : 300));
    const variants = Number(process.env.BENCH_V ?? 3);
    const catalogRate = 40;
    const run = await runResync(context, {
      products,
      variants,
      catalogRate,
      timeoutMs: context.smoke ? 60_000 : 600_000,
      shopifyLimits: 'default',
    });
    const { connector } = run;
    // The peer always runs here (the default): its figures are the comparison.
    const naive = run.naive as NonNullable<typeof run.naive>;
    const row = (label: string, key: Exclude<keyof typeof naive, 'callsByRoute'>) => [
      label,
      connector[key],
      naive[key],
      ratio(Number(connector[key]), Number(naive[key])),
    ];
    return {
      figures: {
        products,
        variants,
        catalogRatePerSecond: catalogRate,
        boundBy: run.shopify.boundBy,
        drivenBy:
          'the whole-shop resync (POST /admin/resync?shop=), timed from the request to the last record',
        ...run,
        ratio: {
          calls: ratio(connector.calls, naive.calls),
          elapsed: ratio(connector.elapsedMs, naive.elapsedMs),
        },
      },
      table: {
        head: ['figure', 'connector', 'naive peer', 'ratio'],
        rows: [
          ['records created', connector.records, naive.records, null],
          ['lower bound N(1+V)', run.lowerBoundCalls, run.lowerBoundCalls, null],
          row('catalog calls', 'calls'),
          row('calls / N(1+V) (target 1.00)', 'callRatio'),
          row('elapsed ms', 'elapsedMs'),
          row('elapsed / (N(1+V) / rate) (target <= 1.05)', 'timeRatio'),
          row('ms to the first call', 'firstCallMs'),
          row('ms from the first call to the last', 'callSpanMs'),
          row('429s (target 0)', 'throttled'),
          row('peak RSS MB', 'peakRssMb'),
          ['Shopify THROTTLED answers (target 0)', run.shopifyThrottled, null, null],
          [
            'Shopify points spent, per product',
            `${run.shopify.pointsSpent}, ${run.shopify.pointsPerProduct}`,
            null,
            null,
          ],
          [`bound ms (${run.shopify.boundBy})`, run.shopify.boundMs, null, null],
          ['elapsed / bound (target <= 1.05)', run.shopify.timeOverBound, null, null],
          ['sync runs (connector), concurrency', `${connector.runs}, ${connector.concurrency}`, null, null],
          ['sync run p50 / max ms', `${connector.runP50Ms} / ${connector.runMaxMs}`, null, null],
        ],
      },
    };
  },
};
