import { describe, expect, it } from 'vitest';
import { CHART_LONGEST_MS, chartWindow, earliestOf, lagPerMinute, windowWords } from './chart-window.js';

const MINUTE = 60_000;
const NOW = Date.parse('2026-05-01T12:00:30Z');

describe('chartWindow', () => {
  it('starts at the connector’s start when the data is younger than that', () => {
    const window = chartWindow(NOW, NOW - 3 * MINUTE, NOW - 34 * MINUTE);
    expect(window.minutes).toBe(35);
    expect(new Date(window.from).toISOString()).toBe('2026-05-01T11:26:00.000Z');
  });

  it('starts at the oldest data when it is older than the connector’s start (a restart)', () => {
    expect(chartWindow(NOW, NOW - 3 * 3_600_000, NOW - MINUTE).minutes).toBe(181);
  });

  it('is 24 hours at most and 10 minutes at least', () => {
    expect(chartWindow(NOW, NOW - 3 * CHART_LONGEST_MS, NOW).minutes).toBe(24 * 60);
    expect(chartWindow(NOW, null, NOW - 30_000).minutes).toBe(10);
    const window = chartWindow(NOW, null, NOW);
    // The last minute is the one holding now.
    expect(window.from + (window.minutes - 1) * MINUTE).toBe(Date.parse('2026-05-01T12:00:00Z'));
  });

  it('names the window in words', () => {
    expect(windowWords(35)).toBe('last 35 minutes');
    expect(windowWords(180)).toBe('last 3 hours');
    expect(windowWords(24 * 60)).toBe('last 24 hours');
  });
});

describe('lagPerMinute', () => {
  it('is the time since the last finished poll at the end of each minute, now for the last one', () => {
    const polls = [new Date(NOW - 4 * MINUTE), new Date(NOW - 90_000)];
    // Minutes ending 11:57, 11:58, 11:59, 12:00 and now (12:00:30).
    expect(lagPerMinute(polls, NOW, 5)).toEqual([30, 90, 0, 60, 90]);
  });

  it('grows while no poll finishes, and is null before the first', () => {
    expect(lagPerMinute([], NOW, 3)).toEqual([null, null, null]);
    expect(lagPerMinute([new Date(NOW - 10 * MINUTE)], NOW, 2)).toEqual([570, 600]);
  });
});

describe('earliestOf', () => {
  it('is the oldest time, or null', () => {
    expect(earliestOf()).toBeNull();
    expect(earliestOf(new Date(5), null, new Date(3))).toBe(3);
  });
});
