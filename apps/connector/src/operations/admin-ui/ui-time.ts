import { esc } from './ui-html.js';
import { relativeTime } from './ui-timeline-words.js';

/** A time as the pages take it: a Date, an ISO 8601 string, or milliseconds since the epoch. */
export type UiInstant = Date | string | number;

function instantOf(at: UiInstant): Date | null {
  const date = at instanceof Date ? at : new Date(at);
  return Number.isNaN(date.getTime()) ? null : date;
}

/** The exact time an operator reads on hover: `2026-05-01 11:48:03 UTC` (seconds, no milliseconds). */
export function exactTime(at: UiInstant): string {
  const date = instantOf(at);
  return date === null ? String(at) : `${date.toISOString().slice(0, 19).replace('T', ' ')} UTC`;
}

/**
 * Why: every page shows a time the same way: relative to the injected Clock's `now` ("12 min
 * ago"), the exact time (UTC, to the second) on hover, the machine-readable instant in
 * `datetime`. A time it cannot read is shown as it is; none (`null`) as a dash.
 */
export function timeAgo(at: UiInstant | null | undefined, now: number): string {
  if (at === null || at === undefined) return '<span class="muted">—</span>';
  const date = instantOf(at);
  if (date === null) return esc(at);
  const iso = `${date.toISOString().slice(0, 19)}Z`;
  return `<time datetime="${iso}" title="${esc(exactTime(date))}">${esc(relativeTime(iso, now))}</time>`;
}
