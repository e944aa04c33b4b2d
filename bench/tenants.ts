import type { BenchContext, Benchmark, BenchResult } from './support/benchmark.js';
import { ratio, round } from './support/figures.js';
import type { LatencyFigures } from './support/freshness-edits.js';
import { ConnectionPeaks, portOf } from './support/process-connections.js';
import type { ResyncRunStatus } from './support/resync.js';
import { recordNames } from './support/tenant-edits.js';
import { bigShopFigures } from './support/tenants-big-shop.js';
import { faultFigures } from './support/tenants-figures.js';
import { editFigures, type PartOptions, runPart } from './support/tenants-part.js';
import { runPeerPart } from './support/tenants-peer.js';
import { accountRecords, setUpTenants } from './support/tenants-setup.js';
import { startTenantsStack, type TenantShop, type TenantsStack } from './support/tenants-stack.js';

/** The targets (issue 45). */
const TARGETS = { bootMs: 10_000, peakRssMb: 512, editP95Ms: 3_000, budgetUse: 0.9 };
/** The merchants' edits across the small shops, per second in all. */
const EDITS_PER_SECOND = 2;

/** `BENCH_TENANTS_SHOPS` and `BENCH_N` (the big shop's products) change the full size, to look closer at a part. */
const FULL = {
  shops: Number(process.env.BENCH_TENANTS_SHOPS ?? 200),
  products: 50,
  bigProducts: Number(process.env.BENCH_N ?? 10_000),
  catalogRate: 100,
  idleEdits: 40,
};
const SMOKE = { shops: 6, products: 10, bigProducts: 200, catalogRate: 40, idleEdits: 4 };

/**
 * `tenants`: many shops on one connector (issue 45). 200 shops installed through OAuth, each
 * with its own catalog account (100/s each) and 50 products; then merchants' edits across 199
 * of them (2 a second in all) while the 200th resyncs 10,000 products, and half way one shop's
 * catalog key is revoked and another shop uninstalls the app. Boot time with 200 shops, peak
 * RSS, the small shops' edit freshness, the big shop's resync rate ÷ its budget, the database
 * connections, and whose failures opened; then the same part for a naive peer with one handler
 * per shop.
 */
export const tenants: Benchmark = {
  name: 'tenants',
  summary: "200 shops: boot, memory, the small shops' edits during a big resync and two faulty shops",
  async run(context: BenchContext): Promise<BenchResult> {
    const size = context.smoke ? SMOKE : FULL;
    const bigSize = { ...size, budgetTarget: TARGETS.budgetUse };
    const stack = await startTenantsStack({
      shops: size.shops,
      catalogRate: size.catalogRate,
      connectorNodeArgs: context.connectorNodeArgs,
      log: context.log,
    });
    try {
      const setup = await setUpTenants(stack, {
        smallProducts: size.products,
        bigProducts: size.bigProducts,
        timeoutMs: context.smoke ? 120_000 : 3_600_000,
        log: context.log,
      });
      const setupPeakRss = stack.connector.peakRss();
      context.log(`tenants: restarting the connector with ${size.shops} shops`);
      const boot = await stack.restart();

      const big = stack.shops.at(-1) as TenantShop;
      const small = stack.shops.slice(0, -1);
      const options: PartOptions = {
        small,
        products: setup.products,
        bigProducts: size.bigProducts,
        editsPerSecond: EDITS_PER_SECOND,
        idleEdits: size.idleEdits,
        revoked: small[Math.floor(small.length / 3)] as TenantShop,
        uninstalled: small[Math.floor((2 * small.length) / 3)] as TenantShop,
        editsTimeoutMs: context.smoke ? 60_000 : 120_000,
        bigTimeoutMs: context.smoke ? 120_000 : 3_600_000,
        targetP95Ms: TARGETS.editP95Ms,
        log: context.log,
      };
      const connections = new ConnectionPeaks(
        () => stack.connector.pid,
        stack.db,
        portOf(stack.databaseUrl, 5432) ?? 5432,
        portOf(stack.redisUrl, 6379),
      );
      const cpuBefore = stack.connector.cpuMs() ?? Number.NaN;
      const wallBefore = performance.now();
      let runId = '';
      const run = await runPart(
        stack,
        {
          read: recordNames(stack),
          async startBig() {
            const path = `/admin/resync?shop=${encodeURIComponent(big.domain)}`;
            runId = (await stack.admin<ResyncRunStatus>('POST', path)).id;
          },
          bigRecords: () => accountRecords(stack, big),
          revokeKey: (shop) => shop.account.controls.setKeysActive(false),
          async uninstall(shop) {
            const path = `shops/${shop.domain}/uninstall`;
            const answer = await stack.shopify.control('POST', path, { clientId: stack.appClientId });
            if (answer.status !== 200) throw new Error(`uninstall: ${answer.status}`);
          },
        },
        options,
      ).finally(() => connections.stop());
      const connectorCpuPercent = round(
        (100 * ((stack.connector.cpuMs() ?? Number.NaN) - cpuBefore)) / (performance.now() - wallBefore),
        0,
      );
      const runEnd = await stack.admin<ResyncRunStatus>('GET', `/admin/resync/${runId}`);
      const peakRssMb = round((stack.connector.peakRss() ?? Number.NaN) / 2 ** 20, 1);
      const faults = await faultFigures(stack, {
        healthy: (shop) => shop !== options.revoked && shop !== options.uninstalled,
        revoked: options.revoked,
        uninstalled: options.uninstalled,
      });
      const connector = {
        ...editFigures(run, options),
        bigShop: {
          ...(await bigShopFigures(stack, big, run, bigSize)),
          run: { state: runEnd.state, listed: runEnd.listed, done: runEnd.done, failed: runEnd.failed },
        },
      };

      context.log('tenants: the same part for the naive peer, one handler per shop');
      const peerRun = await runPeerPart(stack, {
        ...options,
        catalogRate: size.catalogRate,
        big,
        bigBodies: setup.bigProducts,
      });
      const healthyPeerFailures = Object.entries(peerRun.failedByShop)
        .filter(([domain]) => domain !== options.revoked.domain && domain !== options.uninstalled.domain)
        .reduce((sum, [, failed]) => sum + failed, 0);
      const naive = {
        ...editFigures(peerRun, options),
        bigShop: await bigShopFigures(stack, { ...big, account: peerRun.bigAccount }, peerRun, bigSize),
        peakRssMb: peerRun.peakRssMb,
        replayFailed: peerRun.replayFailed,
        failedDeliveries: {
          revokedShop: peerRun.failedByShop[options.revoked.domain] ?? 0,
          healthyShops: healthyPeerFailures,
        },
        revokedShopSubscriptionsLeft: peerRun.revokedShopSubscriptions,
      };
      const figures = {
        shops: size.shops,
        productsPerShop: size.products,
        bigShopProducts: size.bigProducts,
        catalogRatePerSecond: size.catalogRate,
        editsPerSecond: EDITS_PER_SECOND,
        shopifyLimits: 'default',
        infrastructure: stack.infrastructure,
        targets: TARGETS,
        setup: { ...setup.timings, peakRssMb: round((setupPeakRss ?? Number.NaN) / 2 ** 20, 1) },
        boot: {
          listeningMs: round(boot.listeningMs, 0),
          readyMs: round(boot.readyMs, 0),
          targetMet: boot.readyMs <= TARGETS.bootMs,
        },
        peakRssMb,
        peakRssTargetMet: peakRssMb <= TARGETS.peakRssMb,
        connectorCpuPercent,
        ...connector,
        databaseConnections: {
          peakPostgres: connections.postgres,
          peakByApplication: connections.byApplication,
          peakRedis: connections.redis,
          samples: connections.samples,
        },
        ...faults,
        naive,
        ratio: {
          duringResyncP95: ratio(
            connector.edits.duringResync.p95Ms ?? Number.NaN,
            naive.edits.duringResync.p95Ms ?? Number.NaN,
          ),
          afterFaultsP95: ratio(
            connector.edits.afterFaults.p95Ms ?? Number.NaN,
            naive.edits.afterFaults.p95Ms ?? Number.NaN,
          ),
          peakRss: ratio(peakRssMb, naive.peakRssMb ?? Number.NaN),
        },
      };
      return { figures, table: table(figures) };
    } catch (error) {
      throw withDiagnosis(error, stack);
    } finally {
      await stack.close();
    }
  },
};

/**
 * The error with what explains it: its cause (a failed fetch's network error), whether the
 * connector's process still runs, and its last output (it logs errors only).
 */
function withDiagnosis(error: unknown, stack: TenantsStack): Error {
  const cause = error instanceof Error && error.cause !== undefined ? ` (cause: ${String(error.cause)})` : '';
  const alive = stack.connector.rss() === null ? 'has exited' : 'still runs';
  const message = error instanceof Error ? error.message : String(error);
  return new Error(
    `${message}${cause}; the connector (pid ${stack.connector.pid}) ${alive}; its last output:\n${stack.connector.output().slice(-4000)}`,
    { cause: error },
  );
}

type Figures = {
  boot: { readyMs: number; targetMet: boolean };
  peakRssMb: number;
  peakRssTargetMet: boolean;
  edits: Record<'idle' | 'duringResync' | 'afterFaults', LatencyFigures>;
  bigShop: {
    recordsPerSecond: number;
    budgetUse: number | null;
    firstCallMs: number;
    bulkOperationMs: number;
    budgetUseBesideShopify: number | null;
    catalogPartBudgetUse: number | null;
    targetMet: boolean;
    shopify: { pointsPerSecond: number };
  };
  databaseConnections: { peakPostgres: number; peakRedis: number };
  failures: { faultyShops: number; healthyShops: number; healthyShopsOpen: number };
  overview: { healthyShopsNotHealthy: number };
  naive: {
    edits: Record<'idle' | 'duringResync' | 'afterFaults', LatencyFigures>;
    bigShop: { recordsPerSecond: number; budgetUse: number | null };
    peakRssMb: number | null;
    failedDeliveries: { revokedShop: number; healthyShops: number };
  };
};

function table(f: Figures): BenchResult['table'] {
  const cell = (l: LatencyFigures) =>
    l.unseen > 0
      ? `${l.unseen} of ${l.count} never seen`
      : `${l.p50Ms} / ${l.p95Ms} / ${l.maxMs} (${l.count})`;
  const met = (ok: boolean | null) => (ok ? 'met' : 'missed');
  const p95 = `p95 <= ${TARGETS.editP95Ms}`;
  return {
    head: ['figure', 'connector', 'naive peer', 'target'],
    rows: [
      [
        'boot with all shops, to ready (ms)',
        f.boot.readyMs,
        null,
        `<= ${TARGETS.bootMs}: ${met(f.boot.targetMet)}`,
      ],
      [
        'peak RSS (MB)',
        f.peakRssMb,
        f.naive.peakRssMb,
        `<= ${TARGETS.peakRssMb}: ${met(f.peakRssTargetMet)}`,
      ],
      ['edits, nothing else (p50 / p95 / max ms)', cell(f.edits.idle), cell(f.naive.edits.idle), null],
      [
        'edits during the big sync',
        cell(f.edits.duringResync),
        cell(f.naive.edits.duringResync),
        `${p95}: ${met(f.edits.duringResync.targetMet)}`,
      ],
      [
        'edits after the faults',
        cell(f.edits.afterFaults),
        cell(f.naive.edits.afterFaults),
        `${p95}: ${met(f.edits.afterFaults.targetMet)}`,
      ],
      ['big shop Shopify points/s (restore rate 100)', f.bigShop.shopify.pointsPerSecond, null, null],
      [
        'big shop records/s, ÷ budget',
        `${f.bigShop.recordsPerSecond}, ${f.bigShop.budgetUse}`,
        `${f.naive.bigShop.recordsPerSecond}, ${f.naive.bigShop.budgetUse}`,
        `>= ${TARGETS.budgetUse}: ${met(f.bigShop.targetMet)}`,
      ],
      [
        "big shop: Shopify's bulk operation, first catalog call (ms)",
        `${f.bigShop.bulkOperationMs}, ${f.bigShop.firstCallMs}`,
        null,
        null,
      ],
      [
        "big shop ÷ budget beside Shopify's bulk operation; catalog part",
        `${f.bigShop.budgetUseBesideShopify}; ${f.bigShop.catalogPartBudgetUse}`,
        null,
        null,
      ],
      [
        'database connections (peak), Redis',
        `${f.databaseConnections.peakPostgres}, ${f.databaseConnections.peakRedis}`,
        '0, 0',
        null,
      ],
      [
        'failures: faulty shops, healthy shops',
        `${f.failures.faultyShops}, ${f.failures.healthyShops} (${f.failures.healthyShopsOpen} open)`,
        `${f.naive.failedDeliveries.revokedShop}, ${f.naive.failedDeliveries.healthyShops} (failed deliveries)`,
        `healthy 0: ${met(f.failures.healthyShops === 0)}`,
      ],
      ['healthy shops not healthy on the overview', f.overview.healthyShopsNotHealthy, null, null],
    ],
  };
}
