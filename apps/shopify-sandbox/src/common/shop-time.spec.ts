import { describe, expect, it } from 'vitest';
import { graphqlTime, preciseUtcTime, restTime } from './shop-time.js';

describe('shop time formats', () => {
  const at = Date.UTC(2022, 0, 1, 0, 0, 0, 456);

  it('writes REST timestamps in the shop zone with an offset, to the second', () => {
    expect(restTime(at, -300)).toBe('2021-12-31T19:00:00-05:00');
    expect(restTime(at, 0)).toBe('2022-01-01T00:00:00+00:00');
    expect(restTime(at, 330)).toBe('2022-01-01T05:30:00+05:30');
  });

  it('writes GraphQL DateTime in UTC to the second, and precise times with milliseconds', () => {
    expect(graphqlTime(at)).toBe('2022-01-01T00:00:00Z');
    expect(preciseUtcTime(at)).toBe('2022-01-01T00:00:00.456Z');
  });
});
