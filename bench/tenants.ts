import type { AdminRequestRecord } from '#testing/shopify-sandbox';
import type { BenchContext, Benchmark, BenchResult } from './support/benchmark.js';
import { callsSince } from './support/catalog-state.js';
import { ratio, round } from './support/figures.js';
import type { LatencyFigures } from './support/freshness-edits.js';
import { ConnectionPeaks, portOf } from './support/process-connections.js';
import type { ResyncRunStatus } from './support/resync.js';
import { recordNames } from './support/tenant-edits.js';
import { faultFigures } from './support/tenants-figures.js';
import { editFigures, type PartOptions, type PartRun, runPart } from './support/tenants-part.js';
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
          ...(await bigShopFigures(stack, big, run, size)),
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
        bigShop: await bigShopFigures(stack, { ...big, account: peerRun.bigAccount }, peerRun, size),
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

/** The big shop's sync: records a second from its start until its last record, ÷ the budget, and its calls. */
async function bigShopFigures(
  stack: TenantsStack,
  big: TenantShop,
  run: PartRun,
  size: { bigProducts: number; catalogRate: number },
) {
  const calls = (await callsSince(big.account, run.bigStartedEpoch)).filter(
    (c) => c.time <= run.bigStartedEpoch + run.bigMs,
  );
  const recordsPerSecond = size.bigProducts / (run.bigMs / 1000);
  // What the big shop's sync spent of its Shopify bucket (actual cost; default limits: 100 a second).
  const log = await stack.shopify.control('GET', `shops/${big.domain}/admin-requests?api=graphql`);
  const reads = (log.body.requests as AdminRequestRecord[]).filter((r) => {
    const at = Date.parse(r.at);
    return at >= run.bigStartedEpoch && at <= run.bigStartedEpoch + run.bigMs;
  });
  const points = reads.reduce((sum, r) => sum + (r.actualQueryCost ?? 0), 0);
  const bulkOperationMs = await bulkOperationTime(stack, big.domain, run);
  // The time split: the bulk read until the account's first call (Shopify's part), then the
  // catalog part from its first call to its last, at the budget's rate or not (the connector's).
  const first = calls.reduce((at, c) => Math.min(at, c.time), Number.POSITIVE_INFINITY);
  const last = calls.reduce((at, c) => Math.max(at, c.time), Number.NEGATIVE_INFINITY);
  const firstCallMs = calls.length > 0 ? first - run.bigStartedEpoch : Number.NaN;
  const catalogPartMs = calls.length > 0 ? last - first : Number.NaN;
  const byOperation: Record<string, number> = {};
  for (const r of reads) byOperation[r.operationName ?? '?'] = (byOperation[r.operationName ?? '?'] ?? 0) + 1;
  return {
    shopify: {
      requests: reads.length,
      byOperation,
      points,
      pointsPerSecond: round(points / (run.bigMs / 1000), 1),
      throttled: reads.filter((r) => r.outcome === 'throttled').length,
    },
    ms: round(run.bigMs, 0),
    faultsAtMs: round(run.faultsAtMs, 0),
    recordsPerSecond: round(recordsPerSecond, 1),
    budgetUse: ratio(recordsPerSecond, size.catalogRate),
    firstCallMs: round(firstCallMs, 0),
    bulkOperationMs: round(bulkOperationMs, 0),
    budgetUseBesideShopify: ratio(
      size.bigProducts / ((run.bigMs - bulkOperationMs) / 1000),
      size.catalogRate,
    ),
    catalogPartBudgetUse: ratio(size.bigProducts / (catalogPartMs / 1000), size.catalogRate),
    // Where the catalog part lost pace: the account's calls in each 5 s from the first call, and
    // the enrichment polls that ran meanwhile (their start in s from the first call).
    callsPer5s: perWindow(
      calls.map((c) => c.time - first),
      5_000,
    ),
    polls: await pollsBetween(stack, first, last),
    targetMet: recordsPerSecond / size.catalogRate >= TARGETS.budgetUse,
    calls: calls.length,
    catalog429s: calls.filter((c) => c.status === 429).length,
    records: stack.catalog.sandbox.accounts.require(big.account.id).products.size,
  };
}

/** The connector's enrichment polls that started between `from` and `to` (epoch ms). */
async function pollsBetween(stack: TenantsStack, from: number, to: number) {
  if (!Number.isFinite(from)) return [];
  const { rows } = await stack.db.query<{ trigger: string; at: number; took: number | null; shops: number }>(
    `SELECT trigger,
            extract(epoch FROM started_at) * 1000 AS at,
            extract(epoch FROM finished_at - started_at) * 1000 AS took,
            (SELECT count(*) FROM jsonb_object_keys(coalesce(counts->'shops', '{}'::jsonb)))::int AS shops
       FROM "${stack.schema}".enrichment_poll
      WHERE started_at BETWEEN to_timestamp($1 / 1000.0) AND to_timestamp($2 / 1000.0)
      ORDER BY started_at`,
    [from, to],
  );
  return rows.map((r) => ({
    trigger: r.trigger,
    atS: round((Number(r.at) - from) / 1000, 1),
    tookMs: r.took === null ? null : round(Number(r.took), 0),
    shops: r.shops,
  }));
}

/** How many of `offsets` (ms) fall in each `windowMs` from 0. */
function perWindow(offsets: readonly number[], windowMs: number): number[] {
  const counts: number[] = [];
  for (const at of offsets) {
    const i = Math.floor(at / windowMs);
    while (counts.length <= i) counts.push(0);
    counts[i] = (counts[i] ?? 0) + 1;
  }
  return counts;
}

/**
 * Shopify's own time in the big shop's resync: its bulk operations' runs (created to finished, as
 * the sandbox ran them at its bulk rate) within the resync. The connector waits on them and
 * cannot call the catalog before (the result is one file at the end).
 */
async function bulkOperationTime(stack: TenantsStack, domain: string, run: PartRun): Promise<number> {
  const list = await stack.shopify.control('GET', `shops/${domain}/bulk-operations`);
  const runs = list.body.bulkOperations as Array<{ createdAt: string; finishedAt: string | null }>;
  let ms = 0;
  for (const op of runs) {
    const created = Date.parse(op.createdAt);
    if (op.finishedAt === null || created < run.bigStartedEpoch) continue;
    if (created > run.bigStartedEpoch + run.bigMs) continue;
    ms += Date.parse(op.finishedAt) - created;
  }
  return ms;
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
