import { describe, expect, it } from 'vitest';
import { seededRandom } from './seeded-random.js';

describe('seededRandom', () => {
  it('repeats its sequence for a seed, differs across seeds, and stays in [0, 1)', () => {
    const a = Array.from({ length: 1_000 }, seededRandom(7));
    const b = Array.from({ length: 1_000 }, seededRandom(7));
    const c = Array.from({ length: 1_000 }, seededRandom(8));
    expect(b).toEqual(a);
    expect(c).not.toEqual(a);
    expect(a.every((x) => x >= 0 && x < 1)).toBe(true);
    const mean = a.reduce((s, x) => s + x, 0) / a.length;
    expect(mean).toBeGreaterThan(0.4);
    expect(mean).toBeLessThan(0.6);
  });
});
