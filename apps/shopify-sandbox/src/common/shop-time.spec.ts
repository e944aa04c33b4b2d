import { describe, expect, it } from 'vitest';
import {
  graphqlTime,
  isTimeZone,
  nanosecondUtcTime,
  preciseUtcTime,
  restTime,
  zoneAbbreviation,
  zoneOffsetMinutes,
  zoneOffsetText,
} from './shop-time.js';

describe('shop time formats', () => {
  const winter = Date.UTC(2022, 0, 1, 0, 0, 0, 456);
  const summer = Date.UTC(2026, 4, 11, 15, 6, 59, 110);

  it('writes REST timestamps in the shop zone, daylight saving included, to the second', () => {
    expect(restTime(winter, 'America/New_York')).toBe('2021-12-31T19:00:00-05:00');
    // A real 2026-04 delivery from a New York shop: updated_at "2026-05-11T11:06:59-04:00".
    expect(restTime(summer, 'America/New_York')).toBe('2026-05-11T11:06:59-04:00');
    expect(restTime(winter, 'UTC')).toBe('2022-01-01T00:00:00+00:00');
    expect(restTime(winter, 'Asia/Kolkata')).toBe('2022-01-01T05:30:00+05:30');
  });

  it('switches offset at the daylight-saving boundary (2026-03-08 07:00 UTC in New York)', () => {
    const change = Date.UTC(2026, 2, 8, 7, 0, 0);
    expect(restTime(change - 1_000, 'America/New_York')).toBe('2026-03-08T01:59:59-05:00');
    expect(restTime(change, 'America/New_York')).toBe('2026-03-08T03:00:00-04:00');
  });

  it('describes the zone as GraphQL Shop does', () => {
    expect(zoneOffsetMinutes(summer, 'America/New_York')).toBe(-240);
    expect(zoneOffsetMinutes(winter, 'America/New_York')).toBe(-300);
    expect(zoneOffsetText(summer, 'America/New_York')).toBe('-0400');
    expect(zoneAbbreviation(summer, 'America/New_York')).toBe('EDT');
    expect(zoneAbbreviation(winter, 'America/New_York')).toBe('EST');
    expect(zoneOffsetMinutes(winter, 'UTC')).toBe(0);
  });

  it('knows IANA zones and refuses others', () => {
    expect(isTimeZone('America/New_York')).toBe(true);
    expect(isTimeZone('Europe/Paris')).toBe(true);
    expect(isTimeZone('Mars/Olympus_Mons')).toBe(false);
  });

  it('writes GraphQL DateTime in UTC to the second, and precise times with ms or ns', () => {
    expect(graphqlTime(winter)).toBe('2022-01-01T00:00:00Z');
    expect(preciseUtcTime(winter)).toBe('2022-01-01T00:00:00.456Z');
    expect(nanosecondUtcTime(winter, 552_336)).toBe('2022-01-01T00:00:00.456552336Z');
    expect(nanosecondUtcTime(winter, 7)).toBe('2022-01-01T00:00:00.456000007Z');
  });
});
