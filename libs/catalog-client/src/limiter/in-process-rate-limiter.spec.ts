import { describe, expect, it } from 'vitest';
import { ManualClock } from '#lib/clock';
import { DEFAULT_RATE_BUDGET } from './gcra.js';
import { InProcessRateLimiter } from './in-process-rate-limiter.js';
import { LimiterAbortedError, LimiterClosedError } from './queued-rate-limiter.js';

async function settle(): Promise<void> {
  for (let i = 0; i < 20; i++) await Promise.resolve();
}

describe('InProcessRateLimiter', () => {
  it('grants at the configured rate, never faster', async () => {
    const clock = new ManualClock(0);
    const limiter = new InProcessRateLimiter({ clock, ratePerSecond: 4, burst: 2 });
    const granted: number[] = [];
    for (let i = 0; i < 6; i++) void limiter.acquire().then(() => granted.push(clock.now()));
    await settle();
    for (let t = 0; t < 2_000; t += 10) await clock.advance(10);
    expect(granted).toEqual([0, 0, 250, 500, 750, 1000]);
  });

  it('serves interactive before normal before bulk, FIFO within each', async () => {
    const clock = new ManualClock(0);
    const limiter = new InProcessRateLimiter({ clock, ratePerSecond: 10, burst: 1 });
    const order: string[] = [];
    const take = (name: string, priority: 'interactive' | 'normal' | 'bulk') =>
      void limiter.acquire(priority).then(() => order.push(name));
    take('first', 'bulk'); // takes the only token at once
    await settle();
    take('bulk-1', 'bulk');
    take('bulk-2', 'bulk');
    take('normal-1', 'normal');
    take('interactive-1', 'interactive');
    take('interactive-2', 'interactive');
    await settle();
    for (let i = 0; i < 60; i++) await clock.advance(10);
    expect(order).toEqual(['first', 'interactive-1', 'interactive-2', 'normal-1', 'bulk-1', 'bulk-2']);
  });

  it('pauses every waiter, then resumes one at a time', async () => {
    const clock = new ManualClock(0);
    const limiter = new InProcessRateLimiter({ clock, ratePerSecond: 4, burst: 4 });
    await limiter.pause(2_000);
    const granted: number[] = [];
    for (let i = 0; i < 3; i++) void limiter.acquire().then(() => granted.push(clock.now()));
    await settle();
    await clock.advance(1_999);
    expect(granted).toEqual([]);
    for (let i = 0; i < 100; i++) await clock.advance(10);
    expect(granted).toEqual([2_000, 2_250, 2_500]);
  });

  it('rejects waiters when closed', async () => {
    const clock = new ManualClock(0);
    const limiter = new InProcessRateLimiter({ clock, ratePerSecond: 1, burst: 1 });
    await limiter.acquire();
    const waiting = limiter.acquire();
    await limiter.close();
    await expect(waiting).rejects.toBeInstanceOf(LimiterClosedError);
    await expect(limiter.acquire()).rejects.toBeInstanceOf(LimiterClosedError);
  });

  it('an aborted wait leaves the queue without spending budget', async () => {
    const clock = new ManualClock(0);
    const limiter = new InProcessRateLimiter({ clock, ratePerSecond: 4, burst: 1 });
    await limiter.acquire();
    const controller = new AbortController();
    const aborted = limiter.acquire('normal', controller.signal);
    const granted: number[] = [];
    void limiter.acquire('normal').then(() => granted.push(clock.now()));
    await settle();
    controller.abort();
    await expect(aborted).rejects.toBeInstanceOf(LimiterAbortedError);
    expect(limiter.waiting).toBe(1);
    for (let i = 0; i < 60; i++) await clock.advance(10);
    // The slot at 250 ms went to the next caller, not to the one that left.
    expect(granted).toEqual([250]);
    await expect(limiter.acquire('normal', controller.signal)).rejects.toBeInstanceOf(LimiterAbortedError);
  });

  // Timers fire late, and a shared store adds its round trip: here every sleep ends 7 ms late.
  // With burst 1 each late grant is budget lost for good; the default burst 2 lets the next grant
  // catch up, so the long-run rate holds.
  it.each([
    { burst: 1, expected: 39 },
    { burst: DEFAULT_RATE_BUDGET.burst, expected: 41 },
  ])(
    'with late timers, burst $burst grants $expected in 10 s at 4 per second',
    async ({ burst, expected }) => {
      const clock = new LateClock(0, 7);
      const limiter = new InProcessRateLimiter({ clock, ratePerSecond: 4, burst });
      let granted = 0;
      for (let i = 0; i < 60; i++)
        void limiter.acquire().then(
          () => granted++,
          () => undefined,
        );
      await settle();
      for (let t = 0; t < 10_000; t += 10) await clock.advance(10);
      expect(granted).toBe(expected);
      await limiter.close();
    },
  );
});

/** A ManualClock whose sleeps all end `lateMs` after they were due. */
class LateClock extends ManualClock {
  private readonly lateMs: number;
  constructor(start: number, lateMs: number) {
    super(start);
    this.lateMs = lateMs;
  }
  override sleep(ms: number): Promise<void> {
    return super.sleep(ms + this.lateMs);
  }
}
