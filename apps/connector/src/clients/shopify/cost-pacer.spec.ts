import { describe, expect, it } from 'vitest';
import { ManualClock } from '#lib/clock';
import { CostPacer } from './cost-pacer.js';

describe('CostPacer', () => {
  it('lets calls go until Shopify has reported a throttle status', () => {
    expect(new CostPacer(new ManualClock()).waitFor(500)).toBe(0);
  });

  it('waits for the bucket to refill to the next call cost, counting the refill since the report', async () => {
    const clock = new ManualClock();
    const pacer = new CostPacer(clock);
    pacer.observe({ maximumAvailable: 1000, currentlyAvailable: 6, restoreRate: 50 });
    expect(pacer.waitFor(206)).toBe(4_000);
    await clock.advance(1_000);
    expect(pacer.waitFor(206)).toBe(3_000);
    expect(pacer.waitFor(5)).toBe(0);
    await clock.advance(3_000);
    expect(pacer.waitFor(206)).toBe(0);
  });

  it('never asks for more than the bucket can hold', () => {
    const pacer = new CostPacer(new ManualClock());
    pacer.observe({ maximumAvailable: 100, currentlyAvailable: 100, restoreRate: 10 });
    expect(pacer.waitFor(206)).toBe(0);
  });
});
