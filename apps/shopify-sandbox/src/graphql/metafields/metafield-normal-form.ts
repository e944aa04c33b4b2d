import { NUMBER_DECIMAL_MAX_FRACTION_DIGITS } from './metafield-types.data.js';

/**
 * Measurement units Shopify also accepts by their long names (`kilograms`), answered upper-case
 * (`KILOGRAMS`). Captured: `centimeters`, `milliliters`, `kilograms`; the other length and
 * weight names are the schema's `LengthUnit` and `WeightUnit` values. Maps to the short unit.
 */
export const LONG_UNITS: Readonly<Record<string, string>> = {
  millimeters: 'mm',
  centimeters: 'cm',
  meters: 'm',
  inches: 'in',
  feet: 'ft',
  yards: 'yd',
  grams: 'g',
  kilograms: 'kg',
  ounces: 'oz',
  pounds: 'lb',
  milliliters: 'ml',
};

/** The short unit a unit stands for (`KILOGRAMS` → `kg`, `kg` → `kg`); undefined when not a string. */
export function shortUnit(unit: unknown): string | undefined {
  if (typeof unit !== 'string') return undefined;
  return LONG_UNITS[unit.toLowerCase()] ?? unit;
}

/** Booleans Shopify reads as true or false (captured: `t`, `1`, ` TRUE `, `f`, `0`). */
export function booleanOf(value: string): 'true' | 'false' | undefined {
  const text = value.trim().toLowerCase();
  if (text === 'true' || text === 't' || text === '1') return 'true';
  if (text === 'false' || text === 'f' || text === '0') return 'false';
  return undefined;
}

/**
 * A metafield value as Shopify stores and answers it, from one accepted by `metafieldsSet`.
 * Why: Shopify rewrites some values (real 2025-01 answers, in the README's facts): booleans to
 * `true`/`false`, integers without a decimal tail (`5.0` → `5`), decimals cut to nine decimal
 * places, a date and time without a zone given `+00:00`, measurements as
 * `{"value":<float>,"unit":…}` with a long unit name upper-cased, ratings as
 * `{"scale_min","scale_max","value"}`, decimals in a list as strings. Whatever no answer shows
 * (money, json, colors, urls, decimals' trailing zeros, a zone given) stays as it was sent.
 */
export function metafieldNormalForm(type: string, value: string): string {
  if (type.startsWith('list.')) return listNormalForm(type.slice('list.'.length), value);
  switch (type) {
    case 'boolean':
      return booleanOf(value) ?? value;
    case 'number_integer':
      return value.replace(/^(-?\d+)\.0+$/, '$1');
    case 'number_decimal':
      return decimalNormalForm(value);
    case 'date_time':
      return dateTimeNormalForm(value);
    case 'dimension':
    case 'volume':
    case 'weight':
      return measurementText(parse(value)) ?? value;
    case 'rating':
      return ratingText(parse(value)) ?? value;
    default:
      return value;
  }
}

function listNormalForm(type: string, value: string): string {
  const items = parse(value);
  if (!Array.isArray(items)) return value;
  switch (type) {
    case 'number_decimal':
      return JSON.stringify(items.map((i) => (typeof i === 'number' ? String(i) : i)));
    case 'date_time':
      return JSON.stringify(items.map((i) => (typeof i === 'string' ? dateTimeNormalForm(i) : i)));
    case 'dimension':
    case 'volume':
    case 'weight': {
      const texts = items.map(measurementText);
      return texts.every((t) => t !== undefined) ? `[${texts.join(',')}]` : value;
    }
    case 'rating': {
      const texts = items.map(ratingText);
      return texts.every((t) => t !== undefined) ? `[${texts.join(',')}]` : value;
    }
    default:
      return value;
  }
}

/** More than nine decimal places are cut to nine (`1.1234567891` → `1.123456789`). */
function decimalNormalForm(value: string): string {
  const match = /^(-?\d+)\.(\d+)$/.exec(value);
  if (!match || match[2].length <= NUMBER_DECIMAL_MAX_FRACTION_DIGITS) return value;
  return `${match[1]}.${match[2].slice(0, NUMBER_DECIMAL_MAX_FRACTION_DIGITS)}`;
}

/** `2024-01-01T12:30:00` → `2024-01-01T12:30:00+00:00`; a value with a zone is kept. */
function dateTimeNormalForm(value: string): string {
  return /(Z|[+-]\d{2}:?\d{2})$/i.test(value) ? value : `${value}+00:00`;
}

/** `{"value":25,"unit":"centimeters"}` → `{"value":25.0,"unit":"CENTIMETERS"}`. */
function measurementText(raw: unknown): string | undefined {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) return undefined;
  const { value, unit } = raw as { value?: unknown; unit?: unknown };
  const amount = typeof value === 'number' ? value : typeof value === 'string' ? Number(value) : Number.NaN;
  if (!Number.isFinite(amount) || typeof unit !== 'string') return undefined;
  const number = Number.isInteger(amount) ? `${amount}.0` : String(amount);
  const shown = LONG_UNITS[unit.toLowerCase()] ? unit.toUpperCase() : unit;
  return `{"value":${number},"unit":${JSON.stringify(shown)}}`;
}

/** `{"value":"3.5","scale_min":"1.0","scale_max":"5.0"}` → keys `scale_min`, `scale_max`, `value`. */
function ratingText(raw: unknown): string | undefined {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) return undefined;
  const { value, scale_min, scale_max } = raw as Record<string, unknown>;
  return JSON.stringify({ scale_min, scale_max, value });
}

function parse(value: string): unknown {
  try {
    return JSON.parse(value);
  } catch {
    return undefined;
  }
}
