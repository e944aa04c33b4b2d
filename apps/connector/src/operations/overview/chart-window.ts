import type { ChartSeries } from './per-minute.js';

const MINUTE = 60_000;
/** The longest window: the overview's minutes are kept two days, the charts show one. */
export const CHART_LONGEST_MS = 24 * 60 * MINUTE;
/** The shortest window, so that a fresh connector's first minutes still draw a line. */
export const CHART_SHORTEST_MS = 10 * MINUTE;

/** One chart of the overview: what it draws, over which minutes, in which unit, and the list behind it. */
export interface OverviewChart {
  id: string;
  title: string;
  href: string;
  /** `count`: how many a minute (summed in words); `seconds`: a duration measured at each minute. */
  measure: 'count' | 'seconds';
  /** What a count counts, per minute (`calls/min`); for `seconds`, the unit is chosen to fit. */
  unit: string;
  /** The first minute's start and the window's end (now), epoch ms; one value a minute between. */
  from: number;
  to: number;
  series: ChartSeries[];
}

/**
 * Why: a 24-hour window over a connector started ten minutes ago is one spike at "now". The
 * window starts at the oldest thing there is to draw, or at the connector's start when that is
 * earlier (the quiet minutes since then are data too): at most 24 hours, at least 10 minutes.
 * Answers the first minute's start and the number of minutes up to now.
 */
export function chartWindow(
  now: number,
  earliest: number | null,
  startedAt: number,
): { from: number; minutes: number } {
  const start = Math.min(earliest ?? startedAt, startedAt);
  const last = Math.floor(now / MINUTE);
  const slots = last - Math.floor(start / MINUTE) + 1;
  const minutes = Math.min(CHART_LONGEST_MS / MINUTE, Math.max(CHART_SHORTEST_MS / MINUTE, slots));
  return { from: (last - minutes + 1) * MINUTE, minutes };
}

/** The window in words, for a chart's title: "last 24 hours", "last 3 hours", "last 35 minutes". */
export function windowWords(minutes: number): string {
  if (minutes < 120) return `last ${minutes} minutes`;
  return `last ${Math.round(minutes / 60)} hours`;
}

/**
 * Why: the poll lag the overview's card shows is the time since the last poll that finished its
 * work; its chart draws the same measure at the end of each minute (now, for the last one), from
 * the finish times of those polls (oldest first). Null before the first one.
 */
export function lagPerMinute(finishes: readonly Date[], now: number, minutes: number): Array<number | null> {
  const times = finishes.map((f) => f.getTime()).sort((a, b) => a - b);
  const last = Math.floor(now / MINUTE) * MINUTE;
  const values: Array<number | null> = [];
  let next = 0;
  let latest: number | null = null;
  for (let i = 0; i < minutes; i++) {
    const at = i === minutes - 1 ? now : last - (minutes - 2 - i) * MINUTE;
    while (next < times.length && (times[next] as number) <= at) latest = times[next++] as number;
    values.push(latest === null ? null : Math.max(0, (at - latest) / 1000));
  }
  return values;
}

/** The oldest of several timestamps (epoch ms), or null when there is none. */
export function earliestOf(...times: ReadonlyArray<Date | null | undefined>): number | null {
  const known = times.filter((t): t is Date => t instanceof Date).map((t) => t.getTime());
  return known.length === 0 ? null : Math.min(...known);
}
