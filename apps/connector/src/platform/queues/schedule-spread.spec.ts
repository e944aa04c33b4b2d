import { describe, expect, it } from 'vitest';
import { MIN_TICK_MS, nominalTickTime, TICKS_PER_PERIOD, tickMs, turnDue } from './schedule-spread.js';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const shops = Array.from({ length: 200 }, (_, i) => `tenant-${i}.myshopify.com`);

/** Which shops each of `ticks` consecutive ticks takes (the scheduler's nominal times from `start`). */
function ticksOf(schedule: string, periodMs: number, ticks: number, start = Date.UTC(2026, 0, 1, 0, 7, 13)) {
  const tick = tickMs(periodMs);
  return Array.from({ length: ticks }, (_, i) =>
    shops.filter((shop) => turnDue(schedule, shop, periodMs, start + i * tick)),
  );
}

describe('a spread schedule', () => {
  it('ticks 60 times a period, never more often than every 10 s, and a short period not at all', () => {
    expect(tickMs(24 * HOUR)).toBe(24 * MINUTE);
    expect(tickMs(6 * HOUR)).toBe(6 * MINUTE);
    expect(tickMs(HOUR)).toBe(MINUTE);
    expect(tickMs(MINUTE)).toBe(MIN_TICK_MS);
    expect(tickMs(25_000)).toBe(12_500);
    expect(tickMs(19_999)).toBe(19_999);
    expect(tickMs(500)).toBe(500);
    expect(TICKS_PER_PERIOD).toBe(60);
  });

  it('takes each of 200 shops exactly once a period, spread over its ticks (never all at once)', () => {
    for (const [schedule, period] of [
      ['subscription-check', HOUR],
      ['reconcile', 6 * HOUR],
      ['drift-report', 24 * HOUR],
      ['enrichment-poll', MINUTE],
      ['scope-walk', 5 * MINUTE],
    ] as const) {
      const ticks = period / tickMs(period);
      // Two periods from an arbitrary start: each shop twice, at the same place in each.
      const taken = ticksOf(schedule, period, 2 * ticks);
      const counts = new Map<string, number>();
      for (const tick of taken) for (const shop of tick) counts.set(shop, (counts.get(shop) ?? 0) + 1);
      expect(
        [...counts.values()].every((n) => n === 2),
        schedule,
      ).toBe(true);
      expect(counts.size, schedule).toBe(200);
      const largest = Math.max(...taken.map((tick) => tick.length));
      expect(largest, schedule).toBeLessThanOrEqual(Math.ceil((3 * 200) / ticks));
      expect(taken.filter((tick) => tick.length > 0).length, schedule).toBeGreaterThan(ticks / 2);
      const first = taken.slice(0, ticks).map((tick) => tick.join());
      const second = taken.slice(ticks, 2 * ticks).map((tick) => tick.join());
      expect(second, schedule).toEqual(first);
    }
  });

  it('leaves no shop out when ticks are taken late and BullMQ skips the slots already past', () => {
    // The poll's worker busy: each tick is taken 25 s after its slot, and BullMQ schedules the
    // next one at the first slot after that (the slots between never run).
    const period = MINUTE;
    const tick = tickMs(period);
    const start = Date.UTC(2026, 0, 1, 0, 7, 10);
    const taken = new Map<string, number>();
    let slot = start;
    while (slot < start + 10 * period) {
      const takenAt = slot + 25_000;
      for (const shop of shops.filter((s) => turnDue('enrichment-poll', s, period, slot, takenAt)))
        taken.set(shop, (taken.get(shop) ?? 0) + 1);
      slot += tick * (Math.floor((takenAt - slot) / tick) + 1);
    }
    // Each of every shop's ten turns taken (at least once); the windows overlap by 5 s of each
    // 30 s, so about a sixth of the turns are taken twice, no more.
    expect(taken.size).toBe(200);
    for (const [shop, n] of taken) {
      expect(n, shop).toBeGreaterThanOrEqual(10);
      expect(n, shop).toBeLessThanOrEqual(20);
    }
    const all = [...taken.values()].reduce((sum, n) => sum + n, 0);
    expect(all).toBeLessThanOrEqual(2_000 * (35 / 30) * 1.1);
    // Without the late take, the same ticks leave most shops out.
    let slotAgain = start;
    const windowsOnly = new Set<string>();
    while (slotAgain < start + 10 * period) {
      for (const shop of shops.filter((s) => turnDue('enrichment-poll', s, period, slotAgain)))
        windowsOnly.add(shop);
      slotAgain += tick * (Math.floor(25_000 / tick) + 1);
    }
    expect(windowsOnly.size).toBeLessThan(200);
  });

  it('takes a shop once a period when the period is no whole number of ticks', () => {
    const period = 7 * MINUTE + 3;
    const tick = tickMs(period);
    const taken = ticksOf('scope-walk', period, 400);
    for (const shop of shops.slice(0, 20)) {
      const at = taken.flatMap((t, i) => (t.includes(shop) ? [i * tick] : []));
      expect(at.length).toBeGreaterThanOrEqual(Math.floor((400 * tick) / period));
      for (let i = 1; i < at.length; i++) {
        expect(Math.abs((at[i] as number) - (at[i - 1] as number) - period)).toBeLessThan(tick);
      }
    }
  });

  it("gives a shop's schedules turns of their own (its reconciliation and its drift report are not together)", () => {
    const at = (schedule: string) =>
      ticksOf(schedule, HOUR, 60).findIndex((tick) => tick.includes('tenant-0.myshopify.com'));
    const places = new Set(['reconcile', 'drift-report', 'subscription-check', 'scope-walk'].map(at));
    expect(places.size).toBeGreaterThan(1);
  });

  it('takes every shop at each run of a period too short to spread', () => {
    expect(ticksOf('reconcile', 1_000, 3).map((tick) => tick.length)).toEqual([200, 200, 200]);
  });

  it("reads the tick's nominal time from its scheduler's job id, and none from any other", () => {
    expect(nominalTickTime('repeat:reconcile:1795913055766')).toBe(1795913055766);
    expect(nominalTickTime('repeat:drift-report:12')).toBe(12);
    expect(nominalTickTime('poll-5f1c')).toBeNull();
    expect(nominalTickTime('17')).toBeNull();
    expect(nominalTickTime(undefined)).toBeNull();
  });
});
