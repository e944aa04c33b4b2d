import type { BenchContext, Benchmark, BenchResult } from './support/benchmark.js';
import { ratio } from './support/figures.js';
import { runResync } from './support/resync-run.js';

/** The target for the connector's peak RSS during a 10,000-product resync. */
const TARGET_MB = 256;

/**
 * `memory`: the connector's peak RSS during a 10,000-product resync (simple products, rates
 * raised so it takes minutes). The connector runs in its own process; its peak is the kernel's
 * high-water mark (`VmHWM` of /proc/<pid>/status), boot included.
 */
export const memory: Benchmark = {
  name: 'memory',
  summary: "the connector's peak RSS (kernel VmHWM of its process) during a 10,000-product resync",
  async run(context: BenchContext): Promise<BenchResult> {
    const products = Number(process.env.BENCH_N ?? (context.smoke ? 10 : 10_000));
    const catalogRate = context.smoke ? 40 : 100;
    const run = await runResync(context, {
      products,
      variants: 1,
      catalogRate,
      // Twice the time the catalog's rate needs, and never under 20 minutes.
      timeoutMs: context.smoke ? 60_000 : Math.max(1_200_000, (2_000 * products) / catalogRate),
      // Above 10,000 products the peer is left out: it keeps nothing per product (its peak was
      // 97-121 MB at 10,000), and replaying a bigger shop to it would double a run of an hour.
      peer: products <= 10_000,
    });
    const { connector, naive } = run;
    return {
      figures: {
        products,
        variants: 1,
        catalogRatePerSecond: catalogRate,
        measuredAs: 'child process, kernel VmHWM (peak resident set, boot included)',
        drivenBy:
          'the whole-shop resync (POST /admin/resync?shop=), timed from the request to the last record',
        targetMb: TARGET_MB,
        targetMet: connector.peakRssMb !== null && connector.peakRssMb <= TARGET_MB,
        ...run,
        ratio: { peakRss: ratio(connector.peakRssMb ?? Number.NaN, naive?.peakRssMb ?? Number.NaN) },
      },
      table: {
        head: ['figure', 'connector', 'naive peer', 'ratio'],
        rows: [
          ['RSS before the resync MB', connector.rssBeforeMb, naive?.rssBeforeMb ?? null, null],
          [
            `peak RSS MB (target <= ${TARGET_MB})`,
            connector.peakRssMb,
            naive?.peakRssMb ?? null,
            ratio(connector.peakRssMb ?? Number.NaN, naive?.peakRssMb ?? Number.NaN),
          ],
          [
            'peak V8 heap used / heap total MB',
            `${connector.peakHeapUsedMb} / ${connector.peakHeapTotalMb}`,
            null,
            null,
          ],
          ['peak external (buffers) MB', connector.peakExternalMb, null, null],
          ['records created', connector.records, naive?.records ?? null, null],
          ['catalog calls / N', connector.callRatio, naive?.callRatio ?? null, null],
          [
            'elapsed ms',
            connector.elapsedMs,
            naive?.elapsedMs ?? null,
            ratio(connector.elapsedMs, naive?.elapsedMs ?? Number.NaN),
          ],
          ['429s', connector.throttled, naive?.throttled ?? null, null],
        ],
      },
    };
  },
};
