import { describe, expect, it } from 'vitest';
import { ManualClock } from '#lib/clock';
import type { ShopConfig } from '../platform/config/shop-config.js';
import { QueueName } from '../platform/queues/queue-names.js';
import { tickMs } from '../platform/queues/schedule-spread.js';
import { ShopTurns } from './shop-turns.service.js';
import { Shops } from './shops.js';

const HOUR = 3_600_000;
const shops = new Shops(
  Array.from({ length: 200 }, (_, i) => ({ domain: `turn-${i}.myshopify.com` }) as ShopConfig),
);

// A spread schedule's job, tick after tick of the injected clock: the shops it takes.
describe('ShopTurns', () => {
  it('takes each shop once an hour, a few a minute, as the clock moves tick by tick', async () => {
    const clock = new ManualClock();
    const turns = new ShopTurns(shops, clock);
    const tick = tickMs(HOUR);
    const taken: string[][] = [];
    for (let i = 0; i < 120; i++) {
      taken.push(turns.due(QueueName.SUBSCRIPTION_CHECK, HOUR, 'check-asked').map((s) => s.domain));
      await clock.advance(tick);
    }
    const all = taken.flat();
    expect(all).toHaveLength(400);
    expect(new Set(all).size).toBe(200);
    // The same order each hour.
    expect(taken.slice(60)).toEqual(taken.slice(0, 60));
    expect(Math.max(...taken.map((t) => t.length))).toBeLessThan(20);
  });

  it("takes the shops of the scheduler's tick, however late its job runs (run again: the same)", async () => {
    const clock = new ManualClock();
    const turns = new ShopTurns(shops, clock);
    const at = Date.UTC(2026, 0, 1, 10);
    const jobId = `repeat:${QueueName.RECONCILE}:${at}`;
    const onTime = turns.due(QueueName.RECONCILE, 6 * HOUR, jobId);
    await clock.advance(10 * tickMs(6 * HOUR));
    expect(turns.due(QueueName.RECONCILE, 6 * HOUR, jobId)).toEqual(onTime);
  });

  it('takes every shop when the period is too short to spread', () => {
    const turns = new ShopTurns(shops, new ManualClock());
    expect(turns.due(QueueName.RECONCILE, 1_000)).toHaveLength(200);
  });
});
