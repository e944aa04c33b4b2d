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

  it('counts the calls in flight: a call goes only when the bucket holds its cost beside theirs', async () => {
    const clock = new ManualClock();
    const pacer = new CostPacer(clock);
    pacer.observe({ maximumAvailable: 2000, currentlyAvailable: 2000, restoreRate: 100 });
    const first = await pacer.reserve(962);
    const second = await pacer.reserve(962);
    // A third read would overdraw the bucket while both run: it waits.
    expect(pacer.waitFor(962)).toBeGreaterThan(0);
    let third = false;
    const waiting = pacer.reserve(962).then((slot) => {
      third = true;
      return slot;
    });
    await clock.advance(1_000);
    expect(third).toBe(false);
    // The second read's answer (it cost 20 points); the first is still in flight: still counted.
    await second.observe({ maximumAvailable: 2000, currentlyAvailable: 1018, restoreRate: 100 });
    second.release();
    await clock.advance(100);
    expect(third).toBe(false);
    // The first read's answer is staler than the second's: ignored, but its cost is no longer held.
    await first.observe({ maximumAvailable: 2000, currentlyAvailable: 1980, restoreRate: 100 });
    first.release();
    await clock.advance(100);
    expect(third).toBe(true);
    // The third read is in flight: the next waits for it or the refill.
    expect(pacer.waitFor(962)).toBe(8_860);
    const slot = await waiting;
    await slot.observe({ maximumAvailable: 2000, currentlyAvailable: 1500, restoreRate: 100 });
    slot.release();
    expect(pacer.waitFor(962)).toBe(0);
  });

  it('lets one call go before the first throttle status, the next once it reported', async () => {
    const clock = new ManualClock();
    const pacer = new CostPacer(clock);
    const slot = await pacer.reserve(962);
    expect(pacer.waitFor(962)).toBeGreaterThan(0);
    await slot.observe({ maximumAvailable: 2000, currentlyAvailable: 1980, restoreRate: 100 });
    slot.release();
    slot.release();
    expect(pacer.waitFor(962)).toBe(0);
  });
});
