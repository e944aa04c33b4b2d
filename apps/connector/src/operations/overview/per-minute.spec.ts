import { describe, expect, it } from 'vitest';
import { perMinute } from './per-minute.js';

describe('perMinute', () => {
  it('puts each count in its minute slot, the last slot being now, and drops older ones', () => {
    const now = Date.parse('2026-01-01T10:00:30Z');
    const slots = perMinute(
      [
        { minute: new Date('2026-01-01T10:00:00Z'), count: 3 },
        { minute: new Date('2026-01-01T09:58:00Z'), count: 2 },
        { minute: new Date('2026-01-01T09:00:00Z'), count: 9 },
      ],
      now,
      3,
    );
    expect(slots).toEqual([2, 0, 3]);
  });
});
