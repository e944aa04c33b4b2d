import { describe, expect, it } from 'vitest';
import { answeringVersion, parseApiVersions } from './api-versions.js';

const supported = ['2026-01', '2026-04', '2026-07', '2026-10'];

describe('answeringVersion', () => {
  it('answers a supported version with itself, and unstable with unstable', () => {
    expect(answeringVersion('2026-07', supported)).toBe('2026-07');
    expect(answeringVersion('unstable', supported)).toBe('unstable');
  });

  it('falls forward from a retired version to the oldest supported one', () => {
    expect(answeringVersion('2024-01', supported)).toBe('2026-01');
    expect(answeringVersion('2025-10', supported)).toBe('2026-01');
  });

  it('falls forward to the next supported version when the list has a gap', () => {
    expect(answeringVersion('2026-04', ['2026-01', '2026-07'])).toBe('2026-07');
  });

  it('has no answer for a malformed version or one newer than every supported version', () => {
    expect(answeringVersion('2026-05', supported)).toBeUndefined();
    expect(answeringVersion('latest', supported)).toBeUndefined();
    expect(answeringVersion('2027-01', supported)).toBeUndefined();
  });
});

describe('parseApiVersions', () => {
  it('sorts and de-duplicates', () => {
    expect(parseApiVersions('2026-07, 2026-01,2026-07')).toEqual({ versions: ['2026-01', '2026-07'] });
  });

  it('names malformed handles', () => {
    expect(parseApiVersions('2026-07,2026-08,unstable')).toEqual({
      problem: expect.stringContaining('not: 2026-08, unstable'),
    });
    expect(parseApiVersions(' , ')).toHaveProperty('problem');
  });
});
