import type { Job, Queue } from 'bullmq';
import { describe, expect, it } from 'vitest';
import { ManualClock } from '#lib/clock';
import type { ReconcileSettings } from '../platform/config/settings.js';
import type { ShopConfig } from '../platform/config/shop-config.js';
import type { DriftReportPayload } from '../platform/queues/job-payloads.js';
import { tickMs } from '../platform/queues/schedule-spread.js';
import { ShopTurns } from '../shops/shop-turns.service.js';
import { Shops } from '../shops/shops.js';
import type { DriftService } from './drift.service.js';
import { DriftReportJob } from './drift-report.job.js';
import type { DriftReportsRepository } from './store/drift-reports.repository.js';

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
