import { waitFor } from './support/bench-stack.js';
import type { BenchContext, Benchmark, BenchResult } from './support/benchmark.js';
import { callsSince } from './support/catalog-state.js';
import { ratio, round } from './support/figures.js';
import { latencyFigures } from './support/freshness-edits.js';
import { ConnectionPeaks, portOf } from './support/process-connections.js';
import type { ResyncRunStatus } from './support/resync.js';
import { SteadyEdits, type TenantEdit, tenantLatencies } from './support/tenant-edits.js';
import { faultFigures } from './support/tenants-figures.js';
import { accountRecords, setUpTenants } from './support/tenants-setup.js';
import { startTenantsStack, type TenantShop } from './support/tenants-stack.js';

/** The targets (issue 45). */
const TARGETS = { bootMs: 10_000, peakRssMb: 512, editP95Ms: 3_000, budgetUse: 0.9 };
/** The merchants' edits across the small shops, per second in all. */
const EDITS_PER_SECOND = 2;

const FULL = { shops: 200, products: 50, bigProducts: 10_000, catalogRate: 100, idleEdits: 40 };
const SMOKE = { shops: 6, products: 10, bigProducts: 200, catalogRate: 20, idleEdits: 6 };

/**
 * `tenants`: many shops on one connector (issue 45). 200 shops installed through OAuth, each
 * with its own catalog account (100/s each) and 50 products; then merchants' edits across 199
 * of them (2 a second in all) while the 200th resyncs 10,000 products, and half way one shop's
 * catalog key is revoked and another shop uninstalls the app. Boot time with 200 shops, peak
 * RSS, the small shops' edit freshness, the big shop's resync rate ÷ its budget, the database
 * connections, and whose failures opened.
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
    const editsTimeoutMs = context.smoke ? 60_000 : 120_000;
    const resyncTimeoutMs = context.smoke
      ? 120_000
      : (3 * 1000 * size.bigProducts) / size.catalogRate + 300_000;
    let edits: SteadyEdits | null = null;
    try {
      const setup = await setUpTenants(stack, {
        smallProducts: size.products,
        bigProducts: size.bigProducts,
        timeoutMs: context.smoke ? 120_000 : 1_800_000,
        log: context.log,
      });
      const setupPeakRss = stack.connector.peakRss();
      context.log(`tenants: restarting the connector with ${size.shops} shops`);
      const boot = await stack.restart();

      const big = stack.shops.at(-1) as TenantShop;
      const small = stack.shops.slice(0, -1);
      const revoked = small[Math.floor(small.length / 3)] as TenantShop;
      const uninstalled = small[Math.floor((2 * small.length) / 3)] as TenantShop;
      const healthy = (shop: TenantShop) => shop !== revoked && shop !== uninstalled;
      const connections = new ConnectionPeaks(
        () => stack.connector.pid,
        stack.db,
        portOf(process.env.DATABASE_URL, 5432) ?? 5432,
        portOf(process.env.REDIS_URL, 6379),
      );
      const cpuBefore = stack.connector.cpuMs();
      const wallBefore = performance.now();
      edits = new SteadyEdits(stack, small, setup.products, EDITS_PER_SECOND);

      context.log(`tenants: ${size.idleEdits} edits across ${small.length} shops, nothing else running`);
      await edits.sendCount(size.idleEdits);
      await edits.waitSeen(() => true, editsTimeoutMs);

      context.log(`tenants: the big shop resyncs ${size.bigProducts} products; edits go on`);
      edits.phase = 'duringResync';
      const resyncEpoch = Date.now();
      const t0 = performance.now();
      const run = await stack.admin<ResyncRunStatus>(
        'POST',
        `/admin/resync?shop=${encodeURIComponent(big.domain)}`,
      );
      edits.start();
      await waitFor(
        'the big shop to hold half its records',
        async () => accountRecords(stack, big) >= size.bigProducts / 2,
        resyncTimeoutMs,
      );
      context.log(
        `tenants: ${revoked.domain}'s catalog key revoked, ${uninstalled.domain} uninstalls the app`,
      );
      edits.phase = 'afterFaults';
      const faultsAtMs = performance.now() - t0;
      edits.exclude(uninstalled);
      await revoked.account.controls.setKeysActive(false);
      const uninstall = await stack.shopify.control('POST', `shops/${uninstalled.domain}/uninstall`, {
        clientId: stack.appClientId,
      });
      if (uninstall.status !== 200) throw new Error(`uninstall: ${uninstall.status}`);
      await waitFor(
        'the big shop to hold every record',
        async () => accountRecords(stack, big) >= size.bigProducts,
        resyncTimeoutMs,
      );
      const resyncMs = performance.now() - t0;
      await edits.stop();
      const healthyEdit = (e: TenantEdit) => healthy(e.shop);
      await edits.waitSeen(healthyEdit, editsTimeoutMs);
      const cpuMs = (stack.connector.cpuMs() ?? Number.NaN) - (cpuBefore ?? Number.NaN);
      const wallMs = performance.now() - wallBefore;
      const runEnd = await stack.admin<ResyncRunStatus>('GET', `/admin/resync/${run.id}`);
      await connections.stop();

      const part = (phase: string) =>
        latencyFigures(
          tenantLatencies(edits?.edits.filter((e) => healthyEdit(e) && e.phase === phase) ?? []),
          TARGETS.editP95Ms,
        );
      const idle = part('idle');
      const duringResync = part('duringResync');
      const afterFaults = part('afterFaults');
      const revokedEdits = edits.edits.filter((e) => e.shop === revoked && e.phase === 'afterFaults');
      const calls = (await callsSince(big.account, resyncEpoch)).filter(
        (c) => c.time <= resyncEpoch + resyncMs,
      );
      const recordsPerSecond = size.bigProducts / (resyncMs / 1000);
      const peakRssMb = round((stack.connector.peakRss() ?? Number.NaN) / 2 ** 20, 1);
      const faults = await faultFigures(stack, { healthy, revoked, uninstalled });
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
        connectorCpuPercent: round((100 * cpuMs) / wallMs, 0),
        edits: { idle, duringResync, afterFaults },
        revokedShopEditsAfterFault: {
          count: revokedEdits.length,
          seen: revokedEdits.filter((e) => e.seenAt !== null).length,
        },
        bigShop: {
          resyncMs: round(resyncMs, 0),
          faultsAtMs: round(faultsAtMs, 0),
          recordsPerSecond: round(recordsPerSecond, 1),
          budgetUse: ratio(recordsPerSecond, size.catalogRate),
          targetMet: recordsPerSecond / size.catalogRate >= TARGETS.budgetUse,
          calls: calls.length,
          catalog429s: calls.filter((c) => c.status === 429).length,
          run: { state: runEnd.state, listed: runEnd.listed, done: runEnd.done, failed: runEnd.failed },
        },
        databaseConnections: {
          peakPostgres: connections.postgres,
          peakByApplication: connections.byApplication,
          peakRedis: connections.redis,
          samples: connections.samples,
        },
        ...faults,
        naive: {
          note: 'not run: the naive peer serves one shop with one catalog account and has no installs, no resync and nothing per shop to isolate',
        },
      };
      const cell = (f: ReturnType<typeof latencyFigures>) =>
        f.unseen > 0
          ? `${f.unseen} of ${f.count} never seen`
          : `${f.p50Ms} / ${f.p95Ms} / ${f.maxMs} (${f.count})`;
      const met = (ok: boolean | null) => (ok ? 'met' : 'missed');
      return {
        figures,
        table: {
          head: ['figure', 'connector', 'target'],
          rows: [
            [
              'boot with all shops, to ready (ms)',
              figures.boot.readyMs,
              `<= ${TARGETS.bootMs}: ${met(figures.boot.targetMet)}`,
            ],
            ['peak RSS (MB)', peakRssMb, `<= ${TARGETS.peakRssMb}: ${met(figures.peakRssTargetMet)}`],
            ['edits, nothing else (p50 / p95 / max ms)', cell(idle), null],
            [
              'edits during the big resync',
              cell(duringResync),
              `p95 <= ${TARGETS.editP95Ms}: ${met(duringResync.targetMet)}`,
            ],
            [
              'edits after the faults',
              cell(afterFaults),
              `p95 <= ${TARGETS.editP95Ms}: ${met(afterFaults.targetMet)}`,
            ],
            [
              'big shop records/s ÷ budget',
              `${figures.bigShop.recordsPerSecond}, ${figures.bigShop.budgetUse}`,
              `>= ${TARGETS.budgetUse}: ${met(figures.bigShop.targetMet)}`,
            ],
            ['database connections (peak), Redis', `${connections.postgres}, ${connections.redis}`, null],
            [
              'failures: faulty shops, healthy shops',
              `${faults.failures.faultyShops}, ${faults.failures.healthyShops}`,
              `healthy 0: ${met(faults.failures.healthyShops === 0)}`,
            ],
            ['healthy shops not healthy on the overview', faults.overview.healthyShopsNotHealthy, null],
          ],
        },
      };
    } finally {
      await edits?.close();
      await stack.close();
    }
  },
};
