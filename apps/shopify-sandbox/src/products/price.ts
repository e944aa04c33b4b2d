/** Shopify refuses prices from 10^18 up: "Price must be less than 1000000000000000000". */
export const PRICE_LIMIT = 1_000_000_000_000_000_000n;
/** The limit as Shopify's message writes it. */
export const PRICE_LIMIT_TEXT = '1000000000000000000';

/** A normalised price, or why the amount is refused (the message after the field name). */
export type PriceReading = { price: string } | { problem: string };

/**
 * Reads a money amount the way Shopify stores a variant price: a JSON number or a decimal
 * string, at least 0 and below 10^18, kept as a string with two decimals (`19.9` → `"19.90"`,
 * `"20"` → `"20.00"`; more decimals are rounded half up). Works on the decimal text, never on a
 * float, so `"0.125"` rounds to `"0.13"` and large amounts stay exact. Absent (undefined, null)
 * gives undefined: the caller decides whether that is allowed.
 */
export function readPrice(value: unknown): PriceReading | undefined {
  if (value === undefined || value === null) return undefined;
  let text: string;
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) return { problem: 'is not a number' };
    text = numberText(value);
  } else if (typeof value === 'string') {
    text = value.trim();
    if (text === '') return { problem: "can't be blank" };
  } else {
    return { problem: 'is not a number' };
  }
  const decimal = parseDecimal(text);
  if (!decimal) return { problem: 'is not a number' };
  if (decimal.negative && (decimal.whole !== 0n || /[1-9]/.test(decimal.fraction))) {
    return { problem: 'must be greater than or equal to 0' };
  }
  const cents = roundToCents(decimal.whole, decimal.fraction);
  if (decimal.whole >= PRICE_LIMIT || cents >= PRICE_LIMIT * 100n) {
    return { problem: `must be less than ${PRICE_LIMIT_TEXT}` };
  }
  return { price: `${cents / 100n}.${String(cents % 100n).padStart(2, '0')}` };
}

interface Decimal {
  negative: boolean;
  whole: bigint;
  fraction: string;
}

/** `12`, `12.5`, `.5`, `-3`, and exponent forms (`1e30`, `2.5E-3`), exactly. */
function parseDecimal(text: string): Decimal | undefined {
  const match = /^([+-]?)(\d*)(?:\.(\d*))?(?:[eE]([+-]?\d{1,4}))?$/.exec(text);
  if (!match || `${match[2]}${match[3] ?? ''}` === '') return undefined;
  const digits = `${match[2]}${match[3] ?? ''}`;
  const point = match[2].length + Number(match[4] ?? 0);
  let whole: string;
  let fraction: string;
  if (point <= 0) {
    whole = '0';
    fraction = `${'0'.repeat(-point)}${digits}`;
  } else if (point >= digits.length) {
    whole = `${digits}${'0'.repeat(point - digits.length)}`;
    fraction = '';
  } else {
    whole = digits.slice(0, point);
    fraction = digits.slice(point);
  }
  return { negative: match[1] === '-', whole: BigInt(whole === '' ? '0' : whole), fraction };
}

function roundToCents(whole: bigint, fraction: string): bigint {
  const padded = `${fraction}000`;
  const cents = whole * 100n + BigInt(padded.slice(0, 2));
  return padded[2] >= '5' ? cents + 1n : cents;
}

/** The literal a JSON number was written with, as JavaScript prints it (`19.9`, `1e+30`). */
function numberText(value: number): string {
  return String(value).replace('e+', 'e');
}
