import { describe, expect, it } from 'vitest';
import { ManualClock } from '#lib/clock';
import { type BreakerTransition, CircuitBreaker } from './circuit-breaker.js';

describe('CircuitBreaker', () => {
  it('opens after N consecutive failures; a success in between resets the count', () => {
    const breaker = new CircuitBreaker(new ManualClock(0), { failureThreshold: 3 });
    const fail = () => breaker.recordFailure(breaker.tryAdmit() ?? { probe: false }, 'unavailable');
    fail();
    fail();
    breaker.recordSuccess({ probe: false });
    fail();
    fail();
    expect(breaker.state).toBe('closed');
    fail();
    expect(breaker.state).toBe('open');
    expect(breaker.tryAdmit()).toBeNull();
  });

  it('opens at once on 401/403, and lets one probe through after the cool-down', async () => {
    const clock = new ManualClock(0);
    const transitions: BreakerTransition[] = [];
    const breaker = new CircuitBreaker(clock, { authCooldownMs: 60_000 });
    breaker.onStateChange((t) => transitions.push(t));
    breaker.recordFailure({ probe: false }, 'auth');
    expect(breaker.snapshot).toMatchObject({ state: 'open', reason: 'auth', retryAt: 60_000 });
    await clock.advance(59_999);
    expect(breaker.tryAdmit()).toBeNull();
    await clock.advance(1);
    const probe = breaker.tryAdmit();
    expect(probe).toEqual({ probe: true });
    expect(breaker.state).toBe('half-open');
    expect(breaker.tryAdmit()).toBeNull(); // one probe at a time
    breaker.recordSuccess(probe ?? { probe: false });
    expect(breaker.state).toBe('closed');
    expect(transitions.map((t) => `${t.from}->${t.to}`)).toEqual([
      'closed->open',
      'open->half-open',
      'half-open->closed',
    ]);
  });

  it('doubles the cool-down after each failed probe, up to the cap', async () => {
    const clock = new ManualClock(0);
    const breaker = new CircuitBreaker(clock, {
      failureThreshold: 1,
      cooldownMs: 1_000,
      maxCooldownMs: 3_000,
    });
    breaker.recordFailure({ probe: false }, 'unavailable');
    const retryAts: Array<number | null> = [breaker.snapshot.retryAt];
    for (let i = 0; i < 3; i++) {
      await clock.advance((breaker.snapshot.retryAt ?? 0) - clock.now());
      breaker.recordFailure(breaker.tryAdmit() ?? { probe: false }, 'unavailable');
      retryAts.push(breaker.snapshot.retryAt);
    }
    expect(retryAts).toEqual([1_000, 3_000, 6_000, 9_000]);
  });

  it('frees the probe slot when a probe ends without a verdict, and resets on demand', async () => {
    const clock = new ManualClock(0);
    const breaker = new CircuitBreaker(clock, { cooldownMs: 10 });
    breaker.recordFailure({ probe: false }, 'auth');
    breaker.reset();
    expect(breaker.snapshot).toEqual({
      state: 'closed',
      reason: null,
      consecutiveFailures: 0,
      retryAt: null,
    });
    breaker.recordFailure({ probe: false }, 'auth');
    await clock.advance(60_000);
    const probe = breaker.tryAdmit();
    breaker.release(probe ?? { probe: false });
    expect(breaker.tryAdmit()).toEqual({ probe: true });
  });

  it('asked again after a wait: a normal permit needs it closed, the probe needs it still half-open', async () => {
    const clock = new ManualClock(0);
    const breaker = new CircuitBreaker(clock, { failureThreshold: 1, cooldownMs: 1_000 });
    const early = breaker.tryAdmit() ?? { probe: false };
    breaker.recordFailure({ probe: false }, 'unavailable');
    expect(breaker.stillAdmits(early)).toBe(false);
    await clock.advance(1_000);
    const probe = breaker.tryAdmit();
    expect(probe).toEqual({ probe: true });
    expect(breaker.stillAdmits(early)).toBe(false);
    expect(breaker.stillAdmits(probe ?? { probe: false })).toBe(true);
    // Another call's 401 re-opens it while the probe waits: the probe must not go either.
    breaker.recordFailure({ probe: false }, 'auth');
    expect(breaker.stillAdmits(probe ?? { probe: false })).toBe(false);
    breaker.release(probe ?? { probe: false });
    breaker.reset();
    expect(breaker.stillAdmits(early)).toBe(true);
  });

  it('shares its state: what one process publishes another adopts, with the cool-down that doubles', async () => {
    const clock = new ManualClock(0);
    const options = { authCooldownMs: 1_000, probes: 'granted' as const };
    const first = new CircuitBreaker(clock, options);
    const second = new CircuitBreaker(clock, options);
    const seen: BreakerTransition[] = [];
    second.onStateChange((t) => seen.push(t));
    expect(first.shared).toEqual({ state: 'closed' });
    first.recordFailure({ probe: false }, 'auth');
    expect(first.shared).toEqual({ state: 'open', reason: 'auth', retryAt: 1_000, cooldownMs: 1_000 });
    second.adopt(first.shared);
    expect(second.snapshot).toMatchObject({ state: 'open', reason: 'auth', retryAt: 1_000 });
    expect(second.tryAdmit()).toBeNull();
    expect(seen).toEqual([{ from: 'closed', to: 'open', reason: 'auth', shared: true }]);
    // The second wins the probe; it fails: twice the adopted cool-down.
    await clock.advance(1_000);
    second.allowProbe();
    const probe = second.tryAdmit();
    expect(probe).toEqual({ probe: true });
    second.recordFailure(probe ?? { probe: false }, 'auth');
    expect(second.shared).toEqual({ state: 'open', reason: 'auth', retryAt: 3_000, cooldownMs: 2_000 });
    expect(seen.at(-1)).toEqual({ from: 'half-open', to: 'open', reason: 'auth', shared: false });
    first.adopt(second.shared);
    expect(first.snapshot.retryAt).toBe(3_000);
    // Another's successful probe closes it here too.
    first.adopt({ state: 'closed' });
    expect(first.snapshot).toEqual({ state: 'closed', reason: null, consecutiveFailures: 0, retryAt: null });
    expect(first.tryAdmit()).toEqual({ probe: false });
  });

  it('with granted probes, sends none by itself after the cool-down: only once allowed, and only one', async () => {
    const clock = new ManualClock(0);
    const breaker = new CircuitBreaker(clock, { cooldownMs: 100, failureThreshold: 1, probes: 'granted' });
    breaker.allowProbe(); // closed: nothing to allow
    breaker.recordFailure({ probe: false }, 'unavailable');
    await clock.advance(10_000);
    expect(breaker.tryAdmit()).toBeNull();
    breaker.allowProbe();
    expect(breaker.tryAdmit()).toEqual({ probe: true });
    expect(breaker.tryAdmit()).toBeNull();
    breaker.recordSuccess({ probe: true });
    expect(breaker.state).toBe('closed');
    // The grant does not outlive the opening it was for (another's probe closed it first).
    breaker.recordFailure({ probe: false }, 'unavailable');
    breaker.allowProbe();
    breaker.adopt({ state: 'closed' });
    breaker.recordFailure({ probe: false }, 'unavailable');
    await clock.advance(10_000);
    expect(breaker.tryAdmit()).toBeNull();
  });
});
