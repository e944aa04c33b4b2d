const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

/** What is stored of a shop's latest runs (epoch ms; null: none kept). */
export interface RunEvidence {
  /** The latest product sync that did not fail (its record). */
  lastSync: number | null;
  /** The latest enrichment poll that polled the shop and committed its work. */
  lastPoll: number | null;
  /** The latest reconciliation (scheduled or an operator's; not a dry run): its checkpoint. */
  lastReconcile: number | null;
  /** The latest drift report. */
  lastDrift: number | null;
  /**
   * When the scheduler last asked for a poll of every shop: the schedule's rhythm; null when the
   * poll is spread (each shop at its own turn: its last poll is its rhythm).
   */
  lastScheduledPoll: number | null;
  /** The enrichment poll polls the shop (its mapping writes something back). */
  polled: boolean;
}

/** The schedulers' intervals from the configuration, in ms; 0: the schedule is off. */
export interface RunSchedule {
  pollIntervalMs: number;
  reconcileIntervalMs: number;
  driftIntervalMs: number;
}

/** A shop's last runs and when the next scheduled ones are due (ISO 8601; null: unknown or none). */
export interface ShopRunTimes {
  /** The enrichment poll polls the shop (its mapping writes something back). */
  polled: boolean;
  lastSync: string | null;
  lastPoll: string | null;
  lastReconcile: string | null;
  lastDrift: string | null;
  nextPoll: string | null;
  nextReconcile: string | null;
  nextDrift: string | null;
}

const iso = (at: number | null) => (at === null ? null : new Date(at).toISOString());

/**
 * Why: "last sync 12 min ago, next poll in 48 s" must follow from what is stored, never from
 * hope. Each next run is due one interval after the last one (the schedulers run every interval
 * from their last run; the poll, of every shop at once, one interval after the scheduler last
 * asked for one, whether or not this shop's part of it went through); none when the schedule is
 * off, the shop is not polled, or no run is known yet. A due time before `now` stays in the past:
 * the run is late, and the words say so.
 */
export function shopRunTimes(evidence: RunEvidence, schedule: RunSchedule): ShopRunTimes {
  const next = (last: number | null, everyMs: number) =>
    last === null || everyMs <= 0 ? null : iso(last + everyMs);
  return {
    polled: evidence.polled,
    lastSync: iso(evidence.lastSync),
    lastPoll: iso(evidence.lastPoll),
    lastReconcile: iso(evidence.lastReconcile),
    lastDrift: iso(evidence.lastDrift),
    nextPoll: evidence.polled
      ? next(evidence.lastScheduledPoll ?? evidence.lastPoll, schedule.pollIntervalMs)
      : null,
    nextReconcile: next(evidence.lastReconcile, schedule.reconcileIntervalMs),
    nextDrift: next(evidence.lastDrift, schedule.driftIntervalMs),
  };
}

/** A duration in words, rounded down: "less than a minute", "12 min", "3 h 5 min", "2 days". */
export function durationWords(ms: number): string {
  if (ms < MINUTE) return 'less than a minute';
  if (ms < HOUR) return `${Math.floor(ms / MINUTE)} min`;
  if (ms < DAY) {
    const hours = Math.floor(ms / HOUR);
    const minutes = Math.floor((ms % HOUR) / MINUTE);
    return minutes === 0 ? `${hours} h` : `${hours} h ${minutes} min`;
  }
  const days = Math.floor(ms / DAY);
  return days === 1 ? '1 day' : `${days} days`;
}

/** The exact time for a tooltip: `2026-11-28 21:57:42 UTC` (no milliseconds). */
export function exactTime(at: string): string {
  const ms = Date.parse(at);
  return Number.isNaN(ms) ? at : `${new Date(ms).toISOString().slice(0, 19).replace('T', ' ')} UTC`;
}

/** When a run happened, from `now`: "12 min ago", "just now" (under 45 s, or a clock ahead), "never". */
export function agoWords(at: string | null, now: number): string {
  if (at === null) return 'never';
  const ago = now - Date.parse(at);
  return ago < 45_000 ? 'just now' : `${durationWords(ago)} ago`;
}

/**
 * When the next run is due, from `now`: "next in 48 min" (rounded up), "next in less than a
 * minute"; past a day, "next at <exact time>"; "due now" up to a minute after its time; "late by
 * 5 min" after that; "not scheduled" without one.
 */
export function nextWords(at: string | null, now: number): string {
  if (at === null) return 'not scheduled';
  const left = Date.parse(at) - now;
  if (left <= -MINUTE) return `late by ${durationWords(-left)}`;
  if (left <= 0) return 'due now';
  if (left < MINUTE) return 'next in less than a minute';
  // Rounded up: a run due in 47 min 59 s is "next in 48 min".
  return left < DAY ? `next in ${durationWords(left + MINUTE - 1)}` : `next at ${exactTime(at)}`;
}
