import { describe, expect, it } from 'vitest';
import { exactTime, timeAgo } from './ui-time.js';

const NOW = Date.parse('2026-05-01T12:00:00.000Z');

describe('timeAgo', () => {
  it('shows a time relative to the Clock’s now, the exact time to the second (UTC) on hover', () => {
    expect(timeAgo(new Date('2026-05-01T11:48:03.456Z'), NOW)).toBe(
      '<time datetime="2026-05-01T11:48:03Z" title="2026-05-01 11:48:03 UTC">11 min ago</time>',
    );
  });

  it('takes ISO strings and epoch milliseconds alike, and never shows milliseconds', () => {
    const html = timeAgo('2026-04-29T12:00:00.999Z', NOW);
    expect(html).toBe(
      '<time datetime="2026-04-29T12:00:00Z" title="2026-04-29 12:00:00 UTC">2 days ago</time>',
    );
    expect(timeAgo(NOW - 3 * 3_600_000, NOW)).toContain('>3 h ago</time>');
    expect(html).not.toMatch(/\.\d{3}/);
  });

  it('reads relative to the given now, not the machine’s clock', () => {
    const at = new Date('2020-01-01T00:00:00Z');
    expect(timeAgo(at, at.getTime() + 30_000)).toContain('>just now</time>');
  });

  it('shows a dash for no time and an unreadable one as it is, escaped', () => {
    expect(timeAgo(null, NOW)).toBe('<span class="muted">—</span>');
    expect(timeAgo('<soon>', NOW)).toBe('&lt;soon&gt;');
  });
});

describe('exactTime', () => {
  it('is the UTC time to the second', () => {
    expect(exactTime('2026-05-01T08:09:10.123+02:00')).toBe('2026-05-01 06:09:10 UTC');
  });
});
