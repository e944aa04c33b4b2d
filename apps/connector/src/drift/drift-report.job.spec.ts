import type { Job, Queue } from 'bullmq';
import { describe, expect, it } from 'vitest';
import { ManualClock } from '#lib/clock';
import type { CatalogSettings, ReconcileSettings } from '../platform/config/settings.js';
import type { ShopConfig } from '../platform/config/shop-config.js';
import type { FailureInput, FailuresService } from '../platform/failures/failures.service.js';
import { PermanentJobError } from '../platform/failures/job-error.js';
import { JobGuard } from '../platform/failures/job-guard.service.js';
import type { DriftReportPayload } from '../platform/queues/job-payloads.js';
import { tickMs } from '../platform/queues/schedule-spread.js';
import { ShopTurns } from '../shops/shop-turns.service.js';
import { Shops } from '../shops/shops.js';
import type { DriftService } from './drift.service.js';
import { DriftReportJob } from './drift-report.job.js';
import type { DriftReportsRepository } from './store/drift-reports.repository.js';

const SHOP = 'drifting.myshopify.com';

/**
 * The drift report job over a real job guard and a failures inbox that keeps its open failures
 * by shop, kind and subject (as the failures table does); the shop's report fails while
 * `failing()` says so. Its last stored report is `lastReportAgeMs` old (a day by default).
 */
function driftJob(failing: () => boolean, lastReportAgeMs = 86_400_000) {
  const open = new Map<string, FailureInput>();
  const keyOf = (shop: string, jobKind: string, subjectKey: string) => `${shop} ${jobKind} ${subjectKey}`;
  const failures = {
    record: async (input: FailureInput) => {
      open.set(keyOf(input.shop, input.jobKind, input.subjectKey), input);
      return '1';
    },
    resolveSucceeded: async (shop: string, jobKind: string, keys: readonly string[]) => {
      const resolved = keys.filter((key) => open.delete(keyOf(shop, jobKind, key)));
      return resolved;
    },
  };
  const guard = new JobGuard(
    failures as unknown as FailuresService,
    { pauseRecheckMs: 1_000 } as CatalogSettings,
  );
  const clock = new ManualClock(Date.UTC(2026, 10, 28));
  let reports = 0;
  const drift = {
    report: async (shop: string) => {
      if (failing()) throw new PermanentJobError('catalog_key_refused', 'the catalog refused the key');
      reports += 1;
      return { report: { id: String(reports), shop, counts: { orphan: 2 } } };
    },
  } as unknown as DriftService;
  const stored = {
    latest: async () => ({ createdAt: new Date(clock.now() - lastReportAgeMs) }),
  } as unknown as DriftReportsRepository;
  const job = new DriftReportJob(
    drift,
    new ShopTurns(new Shops([{ domain: SHOP } as ShopConfig]), clock),
    stored,
    { driftIntervalMs: 86_400_000 } as ReconcileSettings,
    clock,
    { add: async () => undefined } as unknown as Queue<DriftReportPayload>,
    guard,
  );
  const run = (id: string, data: DriftReportPayload = { shop: SHOP }) =>
    job.process(
      { id, name: 'drift-report', attemptsMade: 0, opts: { attempts: 1 }, data } as Job<DriftReportPayload>,
      'token',
    );
  return { open, run };
}

describe('a shop whose drift report failed', () => {
  it("is resolved by the shop's next drift report that succeeds", async () => {
    let down = true;
    const { open, run } = driftJob(() => down);
    await expect(run('d-1')).rejects.toThrow(/catalog_key_refused/);
    expect([...open.values()]).toMatchObject([
      {
        shop: SHOP,
        jobKind: 'drift-report',
        subjectKey: 'drift-report',
        error: { code: 'catalog_key_refused' },
      },
    ]);
    // Another failure of the same shop is the same open failure, not a second one.
    await expect(run('d-2')).rejects.toThrow(/catalog_key_refused/);
    expect(open.size).toBe(1);

    down = false;
    await expect(run('d-3')).resolves.toMatchObject({ shop: SHOP, findings: 2 });
    expect([...open.values()]).toEqual([]);
  });

  it('stays open through the schedule fanning out and a scheduled run skipped for a recent report', async () => {
    let down = true;
    // The last stored report is an hour old: a scheduled run of the shop is skipped.
    const { open, run } = driftJob(() => down, 3_600_000);
    await expect(run('d-1')).rejects.toThrow(/catalog_key_refused/);
    down = false;
    await expect(run('d-2', {})).resolves.toHaveProperty('enqueued');
    await expect(run('d-3', { shop: SHOP, scheduled: true })).resolves.toEqual({
      shop: SHOP,
      skipped: 'recent-report',
    });
    expect(open.size).toBe(1);
    // A report asked for (not scheduled) runs, and resolves it.
    await expect(run('d-4')).resolves.toMatchObject({ shop: SHOP });
    expect(open.size).toBe(0);
  });
});

const DAY = 86_400_000;

// The scheduled drift report over a day of 200 shops: each tick enqueues only the shops whose
// turn came, each shop once a day, never all of them at once.
describe('the scheduled drift report, spread over the day', () => {
  it("enqueues each of 200 shops' report once a day, a few per tick", async () => {
    const clock = new ManualClock();
    const shops = new Shops(
      Array.from({ length: 200 }, (_, i) => ({ domain: `drift-${i}.myshopify.com` }) as ShopConfig),
    );
    const added: string[] = [];
    const queue = {
      add: async (_name: string, data: DriftReportPayload) => {
        added.push(data.shop as string);
      },
    } as unknown as Queue<DriftReportPayload>;
    const job = new DriftReportJob(
      {} as DriftService,
      new ShopTurns(shops, clock),
      {} as DriftReportsRepository,
      { driftIntervalMs: DAY } as ReconcileSettings,
      clock,
      queue,
      {} as JobGuard,
    );
    const perTick: number[] = [];
    for (let tick = 0; tick < 60; tick++) {
      const before = added.length;
      await job.process({ id: `run-${tick}`, data: {} } as Job<DriftReportPayload>);
      perTick.push(added.length - before);
      await clock.advance(tickMs(DAY));
    }
    expect(added).toHaveLength(200);
    expect(new Set(added).size).toBe(200);
    expect(Math.max(...perTick)).toBeLessThan(20);
  });
});
