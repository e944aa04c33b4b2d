import { describe, expect, it } from 'vitest';
import { MovableClock } from '../../../test/support/movable-clock.js';
import {
  agoWords,
  durationWords,
  exactTime,
  nextWords,
  type RunEvidence,
  shopRunTimes,
} from './run-times.js';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const schedule = { pollIntervalMs: MINUTE, reconcileIntervalMs: 6 * HOUR, driftIntervalMs: 0 };

describe("a shop's last and next runs", () => {
  it('reads each last run from its evidence and dues the next one an interval later', () => {
    // Frozen between the test's moves: two reads of the wall clock a millisecond apart would differ.
    const clock = new MovableClock();
    const frozen = Date.now();
    clock.now = () => frozen + clock.offsetMs;
    const start = clock.now();
    const evidence: RunEvidence = {
      lastSync: start - 12 * MINUTE,
      lastPoll: start - 30_000,
      lastReconcile: start - 5 * HOUR - 12 * MINUTE,
      lastDrift: null,
      lastScheduledPoll: start - 30_000,
      polled: true,
    };
    const times = shopRunTimes(evidence, schedule);
    expect(times).toEqual({
      polled: true,
      lastSync: new Date(start - 12 * MINUTE).toISOString(),
      lastPoll: new Date(start - 30_000).toISOString(),
      lastReconcile: new Date(start - 5 * HOUR - 12 * MINUTE).toISOString(),
      lastDrift: null,
      nextPoll: new Date(start + 30_000).toISOString(),
      nextReconcile: new Date(start + 48 * MINUTE).toISOString(),
      // The drift schedule is off (0), and no report was made.
      nextDrift: null,
    });
    expect(agoWords(times.lastSync, clock.now())).toBe('12 min ago');
    expect(agoWords(times.lastPoll, clock.now())).toBe('just now');
    expect(nextWords(times.nextReconcile, clock.now())).toBe('next in 48 min');
    expect(nextWords(times.nextPoll, clock.now())).toBe('next in less than a minute');

    // Ten minutes later, with nothing run since: the words follow the clock, the poll is late.
    clock.offsetMs = 10 * MINUTE;
    expect(agoWords(times.lastSync, clock.now())).toBe('22 min ago');
    expect(agoWords(times.lastPoll, clock.now())).toBe('10 min ago');
    expect(nextWords(times.nextPoll, clock.now())).toBe('late by 9 min');
    expect(nextWords(times.nextReconcile, clock.now())).toBe('next in 38 min');

    // A poll ran at the moved time: the next one is due a minute after it.
    const polled = shopRunTimes(
      { ...evidence, lastPoll: clock.now(), lastScheduledPoll: clock.now() },
      schedule,
    );
    expect(polled.nextPoll).toBe(new Date(clock.now() + MINUTE).toISOString());
    expect(nextWords(polled.nextPoll, clock.now() - 30_000)).toBe('next in 2 min');
    expect(nextWords(polled.nextPoll, clock.now() + 30_000)).toBe('next in less than a minute');
    expect(nextWords(polled.nextPoll, clock.now() + 90_000)).toBe('due now');
    expect(nextWords(polled.nextPoll, clock.now() + 3 * MINUTE)).toBe('late by 2 min');

    // The scheduler asked for a poll, but this shop's part failed: its last poll stays old, the
    // next poll is due on the schedule's rhythm all the same.
    const failedPart = shopRunTimes({ ...evidence, lastScheduledPoll: clock.now() - 10_000 }, schedule);
    expect(agoWords(failedPart.lastPoll, clock.now())).toBe('10 min ago');
    expect(failedPart.nextPoll).toBe(new Date(clock.now() + 50_000).toISOString());
  });

  it('dues nothing it has no evidence for: a shop never polled, a first run not made, a schedule off', () => {
    const notPolled = shopRunTimes(
      {
        lastSync: null,
        lastPoll: null,
        lastReconcile: null,
        lastDrift: Date.UTC(2026, 0, 1),
        lastScheduledPoll: Date.UTC(2026, 0, 1),
        polled: false,
      },
      { ...schedule, driftIntervalMs: 24 * HOUR },
    );
    expect(notPolled).toMatchObject({
      lastSync: null,
      nextPoll: null,
      nextReconcile: null,
      nextDrift: new Date(Date.UTC(2026, 0, 2)).toISOString(),
    });
    expect(agoWords(null, Date.now())).toBe('never');
    expect(nextWords(null, Date.now())).toBe('not scheduled');
    // Polled, but no poll known yet: its next is not known; once the scheduler asked for one, it is.
    expect(shopRunTimes({ ...notPolledEvidence(), polled: true }, schedule).nextPoll).toBeNull();
    expect(
      shopRunTimes(
        { ...notPolledEvidence(), polled: true, lastScheduledPoll: Date.UTC(2026, 0, 1) },
        schedule,
      ).nextPoll,
    ).toBe(new Date(Date.UTC(2026, 0, 1) + MINUTE).toISOString());
  });

  it('says durations in words, and a far next run at its exact time', () => {
    expect(durationWords(30_000)).toBe('less than a minute');
    expect(durationWords(59 * MINUTE)).toBe('59 min');
    expect(durationWords(3 * HOUR)).toBe('3 h');
    expect(durationWords(3 * HOUR + 5 * MINUTE)).toBe('3 h 5 min');
    expect(durationWords(49 * HOUR)).toBe('2 days');
    const now = Date.UTC(2026, 10, 28, 12);
    const tomorrow = new Date(now + 30 * HOUR).toISOString();
    expect(nextWords(tomorrow, now)).toBe('next at 2026-11-29 18:00:00 UTC');
    expect(exactTime('2026-11-28T21:57:42.123Z')).toBe('2026-11-28 21:57:42 UTC');
    // A time ahead of now (another replica's clock): just now, never "in the future ago".
    expect(agoWords(new Date(now + 5_000).toISOString(), now)).toBe('just now');
  });
});

function notPolledEvidence(): RunEvidence {
  return {
    lastSync: null,
    lastPoll: null,
    lastReconcile: null,
    lastDrift: null,
    lastScheduledPoll: null,
    polled: false,
  };
}
