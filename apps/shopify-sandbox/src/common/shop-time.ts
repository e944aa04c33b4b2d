/**
 * Timestamps as Shopify writes them. REST-style payloads use the shop's time zone (an IANA zone,
 * daylight saving included) with an offset and second precision (`2026-05-11T11:06:59-04:00`);
 * GraphQL `DateTime` is UTC (`2022-01-01T00:00:00Z`).
 */
export function restTime(ms: number, timeZone: string): string {
  const seconds = Math.floor(ms / 1000) * 1000;
  const offset = zoneOffsetMinutes(seconds, timeZone);
  const shifted = new Date(seconds + offset * 60_000);
  return `${shifted.toISOString().slice(0, 19)}${formatOffset(offset, ':')}`;
}

export function graphqlTime(ms: number): string {
  return `${new Date(Math.floor(ms / 1000) * 1000).toISOString().slice(0, 19)}Z`;
}

/** Millisecond-precision UTC, as in `variant_gids[].updated_at`. */
export function preciseUtcTime(ms: number): string {
  return new Date(ms).toISOString();
}

/**
 * Nanosecond-precision UTC, as in `X-Shopify-Triggered-At` (`2024-05-06T10:45:17.912552336Z`
 * in a captured delivery). The clock has milliseconds; `subMillisecond` (0..999999) fills the rest.
 */
export function nanosecondUtcTime(ms: number, subMillisecond: number): string {
  const digits = String(Math.max(0, Math.min(999_999, Math.floor(subMillisecond)))).padStart(6, '0');
  return `${new Date(ms).toISOString().slice(0, 23)}${digits}Z`;
}

/** The zone's offset from UTC at that instant, in minutes (`-240` for New York in summer). */
export function zoneOffsetMinutes(ms: number, timeZone: string): number {
  const name = formatter(timeZone, 'longOffset')
    .formatToParts(new Date(ms))
    .find((part) => part.type === 'timeZoneName')?.value;
  const match = /GMT([+-])(\d{1,2})(?::?(\d{2}))?/.exec(name ?? '');
  if (!match) return 0;
  const minutes = Number(match[2]) * 60 + Number(match[3] ?? 0);
  return match[1] === '-' ? -minutes : minutes;
}

/** `-0400`, as GraphQL `Shop.timezoneOffset` writes it. */
export function zoneOffsetText(ms: number, timeZone: string): string {
  return formatOffset(zoneOffsetMinutes(ms, timeZone), '');
}

/** The zone's short name at that instant (`EDT`, `EST`; `GMT+1` where English has none). */
export function zoneAbbreviation(ms: number, timeZone: string): string {
  return (
    formatter(timeZone, 'short')
      .formatToParts(new Date(ms))
      .find((part) => part.type === 'timeZoneName')?.value ?? 'UTC'
  );
}

/** True when `timeZone` is an IANA zone this runtime knows (`America/New_York`, `UTC`). */
export function isTimeZone(timeZone: string): boolean {
  try {
    formatter(timeZone, 'short');
    return true;
  } catch {
    return false;
  }
}

const formatters = new Map<string, Intl.DateTimeFormat>();

function formatter(timeZone: string, timeZoneName: 'short' | 'longOffset'): Intl.DateTimeFormat {
  const key = `${timeZone}\u0000${timeZoneName}`;
  let cached = formatters.get(key);
  if (!cached) {
    cached = new Intl.DateTimeFormat('en-US', { timeZone, timeZoneName });
    formatters.set(key, cached);
  }
  return cached;
}

function formatOffset(offsetMinutes: number, separator: string): string {
  const sign = offsetMinutes < 0 ? '-' : '+';
  const abs = Math.abs(offsetMinutes);
  return `${sign}${pad(Math.floor(abs / 60))}${separator}${pad(abs % 60)}`;
}

function pad(n: number): string {
  return String(n).padStart(2, '0');
}
