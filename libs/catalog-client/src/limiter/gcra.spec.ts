import { describe, expect, it } from 'vitest';
import { checkBudget, type GcraState, gcraPause, gcraTake } from './gcra.js';

function run(state: GcraState, budget: { ratePerSecond: number; burst: number }, times: number[]) {
  let current = state;
  return times.map((now) => {
    const verdict = gcraTake(current, budget, now);
    if (verdict.granted) current = verdict.state;
    return verdict.granted ? 'ok' : verdict.waitMs;
  });
}

describe('GCRA', () => {
  const fresh: GcraState = { tat: 0, pausedUntil: 0 };

  it('spaces requests 1/rate apart with burst 1', () => {
    expect(run(fresh, { ratePerSecond: 4, burst: 1 }, [1000, 1000, 1249, 1250, 1250])).toEqual([
      'ok',
      250,
      1,
      'ok',
      250,
    ]);
  });

  it('allows a burst after a quiet period, then the rate', () => {
    expect(run(fresh, { ratePerSecond: 4, burst: 3 }, [1000, 1000, 1000, 1000, 1250, 1250])).toEqual([
      'ok',
      'ok',
      'ok',
      250,
      'ok',
      250,
    ]);
  });

  it('pauses every grant and restarts with an empty bucket', () => {
    const budget = { ratePerSecond: 4, burst: 3 };
    const paused = gcraPause(fresh, budget, 1000, 2000);
    expect(run(paused, budget, [1000, 2999, 3000, 3000])).toEqual([2000, 1, 'ok', 250]);
    // A shorter pause never shortens a longer one.
    expect(gcraPause(paused, budget, 1500, 100).pausedUntil).toBe(3000);
  });

  it('refuses nonsense budgets', () => {
    expect(() => checkBudget({ ratePerSecond: 0, burst: 1 })).toThrow(RangeError);
    expect(() => checkBudget({ ratePerSecond: 4, burst: 0 })).toThrow(RangeError);
    expect(() => checkBudget({ ratePerSecond: 4, burst: 1.5 })).toThrow(RangeError);
  });
});
