/**
 * Timestamps as Shopify writes them. REST-style payloads use the shop's time zone with an
 * offset and second precision (`2021-12-31T19:00:00-05:00`); GraphQL `DateTime` is UTC
 * (`2022-01-01T00:00:00Z`).
 */
export function restTime(ms: number, utcOffsetMinutes: number): string {
  const shifted = new Date(Math.floor(ms / 1000) * 1000 + utcOffsetMinutes * 60_000);
  const sign = utcOffsetMinutes < 0 ? '-' : '+';
  const abs = Math.abs(utcOffsetMinutes);
  const offset = `${sign}${pad(Math.floor(abs / 60))}:${pad(abs % 60)}`;
  return `${shifted.toISOString().slice(0, 19)}${offset}`;
}

export function graphqlTime(ms: number): string {
  return `${new Date(Math.floor(ms / 1000) * 1000).toISOString().slice(0, 19)}Z`;
}

/** Millisecond-precision UTC, as in `variant_gids[].updated_at` and `X-Shopify-Triggered-At`. */
export function preciseUtcTime(ms: number): string {
  return new Date(ms).toISOString();
}

function pad(n: number): string {
  return String(n).padStart(2, '0');
}
