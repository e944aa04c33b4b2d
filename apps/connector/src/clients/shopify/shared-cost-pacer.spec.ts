import { describe, expect, it } from 'vitest';
import { ManualClock } from '#lib/clock';
import type { SharedCostBuckets } from './shared-cost-buckets.repository.js';
import { SharedCostPacer } from './shared-cost-pacer.js';

const STATUS = { maximumAvailable: 2000, currentlyAvailable: 1500, restoreRate: 100 };

describe('SharedCostPacer', () => {
  it('takes from the shared bucket, and settles each answer with its refund', async () => {
    const calls: unknown[] = [];
    const buckets = {
      take: async (shop: string, cost: number) => {
        calls.push(['take', shop, cost]);
        return 0;
      },
      settle: async (shop: string, status: unknown, refund: number) => {
        calls.push(['settle', shop, status, refund]);
      },
    } as unknown as SharedCostBuckets;
    const pacer = new SharedCostPacer('s.myshopify.com', buckets, new ManualClock());
    const slot = await pacer.reserve(962);
    await slot.observe(STATUS, 945);
    slot.release();
    expect(calls).toEqual([
      ['take', 's.myshopify.com', 962],
      ['settle', 's.myshopify.com', STATUS, 945],
    ]);
  });

  it('paces in its own process while PostgreSQL cannot be reached', async () => {
    const buckets = {
      take: async () => Promise.reject(new Error('connection refused')),
      settle: async () => Promise.reject(new Error('connection refused')),
    } as unknown as SharedCostBuckets;
    const pacer = new SharedCostPacer('s.myshopify.com', buckets, new ManualClock());
    const slot = await pacer.reserve(962);
    await slot.observe({ ...STATUS, currentlyAvailable: 100 });
    slot.release();
    // The local estimate: 862 points missing at 100 a second.
    expect(pacer.waitFor(962)).toBe(8_620);
  });
});
