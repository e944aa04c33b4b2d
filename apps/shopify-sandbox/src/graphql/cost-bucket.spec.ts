import { describe, expect, it } from 'vitest';
import { ManualClock } from '#lib/clock';
import { CostBucket } from './cost-bucket.js';

describe('CostBucket', () => {
  it('starts full, pays costs, and restores at the rate of the clock', async () => {
    const clock = new ManualClock();
    const bucket = new CostBucket(clock, 1000, 50);
    expect(bucket.status()).toEqual({ maximumAvailable: 1000, currentlyAvailable: 1000, restoreRate: 50 });
    bucket.pay(900);
    expect(bucket.canAfford(101)).toBe(false);
    expect(bucket.canAfford(100)).toBe(true);
    await clock.advance(2_000);
    expect(bucket.status().currentlyAvailable).toBe(200);
    await clock.advance(60_000);
    expect(bucket.status().currentlyAvailable).toBe(1000);
  });

  it('can be set to a level, within its size', () => {
    const bucket = new CostBucket(new ManualClock(), 100, 1);
    bucket.setAvailable(5);
    expect(bucket.status().currentlyAvailable).toBe(5);
    bucket.setAvailable(500);
    expect(bucket.status().currentlyAvailable).toBe(100);
  });
});
