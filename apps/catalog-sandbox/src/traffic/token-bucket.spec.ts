import { describe, expect, it } from 'vitest';
import { TokenBucket } from './token-bucket.js';

describe('TokenBucket', () => {
  it('allows a burst, then one request per 1/rate seconds', () => {
    const bucket = new TokenBucket({ enabled: true, ratePerSecond: 4, burst: 3 });
    expect([0, 0, 0].map(() => bucket.take(1_000).allowed)).toEqual([true, true, true]);
    const refused = bucket.take(1_000);
    expect(refused).toEqual({ allowed: false, retryAfterMs: 250 });
    expect(bucket.take(1_249).allowed).toBe(false);
    expect(bucket.take(1_250).allowed).toBe(true);
    expect(bucket.take(1_250).allowed).toBe(false);
  });

  it('never holds more than the burst however long it was idle', () => {
    const bucket = new TokenBucket({ enabled: true, ratePerSecond: 10, burst: 2 });
    bucket.take(0);
    const allowed = [1, 2, 3].map(() => bucket.take(60_000).allowed);
    expect(allowed).toEqual([true, true, false]);
  });

  it('lets everything through when disabled', () => {
    const bucket = new TokenBucket({ enabled: false, ratePerSecond: 1, burst: 1 });
    expect(Array.from({ length: 50 }, () => bucket.take(0).allowed).every(Boolean)).toBe(true);
  });
});
