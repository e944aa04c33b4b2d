import { describe, expect, it } from 'vitest';
import { ShopPace } from './shop-pace.js';

describe('ShopPace', () => {
  it('is calm with no delivery within the quiet time and fewer than the most within the period', () => {
    const pace = new ShopPace(1_000, 250, 4);
    expect(pace.isCalm('a', 0)).toBe(true);
    pace.note('a', 0);
    expect(pace.isCalm('a', 100)).toBe(false);
    expect(pace.isCalm('a', 250)).toBe(true);
    expect(pace.isCalm('b', 100)).toBe(true);
    for (const at of [100, 200, 300]) pace.note('a', at);
    // Four within the last second: a pause of 400 ms is not calm.
    expect(pace.isCalm('a', 700)).toBe(false);
    expect(pace.isCalm('a', 999)).toBe(false);
    // The first of them left the period: three remain.
    expect(pace.isCalm('a', 1_000)).toBe(true);
  });

  it('takes a quarter of the debounce and at most 3 deliveries within it for the leading edge', () => {
    const pace = ShopPace.forDebounce(1_000);
    expect([pace.periodMs, pace.quietMs, pace.maxInPeriod]).toEqual([1_000, 250, 4]);
  });
});
