import { booleanOf, shortUnit } from './metafield-normal-form.js';
import {
  LIST_MAX_ITEMS,
  METAFIELD_MESSAGES,
  METAFIELD_TYPES,
  METAOBJECT_LIST_MAX_ITEMS,
  type MetafieldTypeSpec,
  NUMBER_DECIMAL_MAX_INTEGER_DIGITS,
  NUMBER_INTEGER_MAX,
  URL_SCHEMES,
} from './metafield-types.data.js';
import { richTextProblem } from './rich-text.js';

const M = METAFIELD_MESSAGES.value;

/** What a value check needs to know about the shop. */
export interface ValueContext {
  /** The shop's currency: a `money` value must use it. */
  currencyCode: string;
  /** Whether a referenced resource exists; undefined when the sandbox cannot tell (it has no such resources). */
  referenceExists(gid: string): boolean | undefined;
}

/** Why a value is refused: a `MetafieldsSetUserErrorCode`, the message, and the list item at fault. */
export interface ValueProblem {
  code: 'BLANK' | 'INVALID_VALUE' | 'TOO_LONG';
  message: string;
  /** Index of the offending item of a `list.*` value; null for a single value. */
  elementIndex: number | null;
}

/** The spec of a type name (`url`, `list.url`), or undefined for a type Shopify does not have. */
export function metafieldType(type: string): { spec: MetafieldTypeSpec; list: boolean } | undefined {
  const list = type.startsWith('list.');
  const spec = METAFIELD_TYPES[list ? type.slice('list.'.length) : type];
  if (!spec || (list && !spec.list)) return undefined;
  return { spec, list };
}

/** Checks a value against a known type, as `metafieldsSet` does; undefined when it is acceptable. */
export function metafieldValueProblem(
  type: string,
  value: string,
  ctx: ValueContext,
): ValueProblem | undefined {
  const known = metafieldType(type);
  if (!known) throw new Error(`Unknown metafield type ${type}`);
  if (value.trim() === '')
    return { code: 'BLANK', message: METAFIELD_MESSAGES.blankValue, elementIndex: null };
  const { spec, list } = known;
  if (!list) {
    if (Buffer.byteLength(value) > spec.maxBytes) return tooBig(spec, null);
    const message = singleProblem(spec, value, ctx);
    return message ? { code: 'INVALID_VALUE', message, elementIndex: null } : undefined;
  }
  const items = parseJson(value);
  if (!Array.isArray(items)) return { code: 'INVALID_VALUE', message: M.list, elementIndex: null };
  const max = spec.references?.includes('Metaobject') ? METAOBJECT_LIST_MAX_ITEMS : LIST_MAX_ITEMS;
  if (items.length > max) return { code: 'INVALID_VALUE', message: M.listTooLong(max), elementIndex: null };
  for (const [index, item] of items.entries()) {
    const single = itemAsValue(spec, item);
    if (single === undefined)
      return { code: 'INVALID_VALUE', message: invalidItem(spec), elementIndex: index };
    if (Buffer.byteLength(single) > spec.maxBytes) return tooBig(spec, index);
    const message = singleProblem(spec, single, ctx);
    if (message) return { code: 'INVALID_VALUE', message, elementIndex: index };
  }
  return undefined;
}

function tooBig(spec: MetafieldTypeSpec, elementIndex: number | null): ValueProblem {
  return { code: 'TOO_LONG', message: METAFIELD_MESSAGES.tooBig(spec.maxBytes), elementIndex };
}

/**
 * A list item as the single value it stands for: strings as they are, numbers and booleans
 * as written, objects (measurements, money, links, ratings, json) as JSON; undefined for an
 * item of the wrong JSON kind.
 */
function itemAsValue(spec: MetafieldTypeSpec, item: unknown): string | undefined {
  if (spec.kind === 'json') return JSON.stringify(item);
  if (typeof item === 'string') return structured(spec) ? undefined : item;
  if (typeof item === 'number') return spec.kind.startsWith('number_') ? String(item) : undefined;
  if (typeof item === 'object' && item !== null && !Array.isArray(item))
    return structured(spec) ? JSON.stringify(item) : undefined;
  return undefined;
}

function structured(spec: MetafieldTypeSpec): boolean {
  return ['measurement', 'money', 'link', 'rating'].includes(spec.kind);
}

/** The message for a list item of the wrong JSON kind (a number in a list of colors, ...). */
function invalidItem(spec: MetafieldTypeSpec): string {
  const messages: Partial<Record<MetafieldTypeSpec['kind'], string>> = {
    color: M.color,
    date: M.date,
    date_time: M.dateTime,
    measurement: M.measurementShape,
    link: M.link,
    money: M.money,
    number_decimal: M.decimal,
    number_integer: M.integer,
    rating: M.rating,
    single_line_text: M.singleLine,
    id: M.singleLine,
    url: M.url,
  };
  if (spec.kind === 'reference') return M.reference(spec.label ?? 'resource');
  return messages[spec.kind] ?? M.list;
}

/** The message for a single (non-list) value of a spec, or undefined when it is acceptable. */
function singleProblem(spec: MetafieldTypeSpec, value: string, ctx: ValueContext): string | undefined {
  switch (spec.kind) {
    case 'boolean':
      return booleanOf(value) ? undefined : M.boolean;
    case 'color':
      return /^#[0-9A-Fa-f]{6}$/.test(value) ? undefined : M.color;
    case 'date':
      return isDate(value) ? undefined : M.date;
    case 'date_time':
      return isDateTime(value) ? undefined : M.dateTime;
    case 'number_integer':
      return isInteger(value) ? undefined : M.integer;
    case 'number_decimal':
      return isDecimal(value) ? undefined : M.decimal;
    case 'json':
      return parseJson(value) === INVALID ? M.json : undefined;
    case 'single_line_text':
    case 'id':
      return /[\r\n]/.test(value) ? M.singleLine : undefined;
    case 'multi_line_text':
      return undefined;
    case 'url':
      return isUrl(value) ? undefined : M.url;
    case 'link':
      return isLink(parseJson(value)) ? undefined : M.link;
    case 'money':
      return isMoney(parseJson(value), ctx.currencyCode) ? undefined : M.money;
    case 'measurement':
      return measurementProblem(parseJson(value), spec.units ?? []);
    case 'rating':
      return isRating(parseJson(value)) ? undefined : M.rating;
    case 'rich_text':
      return richTextProblem(parseJson(value)) ? M.richText : undefined;
    case 'language':
      return /^[a-z]{2,3}(-[A-Za-z0-9]{2,8})*$/.test(value) ? undefined : M.language;
    case 'reference':
      return referenceProblem(spec, value, ctx);
  }
}

const INVALID = Symbol('invalid JSON');

function parseJson(value: string): unknown {
  try {
    return JSON.parse(value);
  } catch {
    return INVALID;
  }
}

function isDate(value: string): boolean {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  if (!match) return false;
  const [year, month, day] = match.slice(1).map(Number);
  const date = new Date(Date.UTC(year, month - 1, day));
  return date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
}

/** ISO 8601 date and time, seconds and zone optional (`2022-01-01T12:30:00`, `...Z`, `...+02:00`). */
function isDateTime(value: string): boolean {
  const match = /^(\d{4}-\d{2}-\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2})?$/.exec(
    value,
  );
  if (!match || !isDate(match[1])) return false;
  return Number(match[2]) < 24 && Number(match[3]) < 60 && Number(match[4] ?? 0) < 60;
}

/** Shopify takes `5.0` for 5 and refuses `+5` (real 2025-01 answers). */
function isInteger(value: string): boolean {
  const match = /^(-?\d+)(?:\.0+)?$/.exec(value);
  if (!match) return false;
  const n = BigInt(match[1]);
  return n <= NUMBER_INTEGER_MAX && n >= -NUMBER_INTEGER_MAX;
}

function isDecimal(value: string): boolean {
  const match = /^[-+]?(\d+)(?:\.(\d+))?$/.exec(value);
  if (!match) return false;
  const integer = match[1].replace(/^0+(?=\d)/, '');
  return (
    // More than nine decimal places: Shopify cuts them to nine rather than refuse them (a real
    // 2025-01 answer; metafieldNormalForm cuts them).
    integer.length <= NUMBER_DECIMAL_MAX_INTEGER_DIGITS
  );
}

function isUrl(value: string): boolean {
  if (/\s/.test(value) || !URL.canParse(value)) return false;
  const url = new URL(value);
  const scheme = url.protocol.replace(/:$/, '');
  if (!(URL_SCHEMES as readonly string[]).includes(scheme)) return false;
  return scheme === 'http' || scheme === 'https' ? url.hostname !== '' : url.pathname !== '';
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** `{"text": "...", "url": "https://..."}`. */
function isLink(value: unknown): boolean {
  return (
    isObject(value) &&
    typeof value.text === 'string' &&
    value.text.trim() !== '' &&
    typeof value.url === 'string' &&
    isUrl(value.url)
  );
}

function decimalOf(value: unknown): number | undefined {
  if (typeof value === 'number' && Number.isFinite(value)) return value;
  if (typeof value === 'string' && isDecimal(value)) return Number(value);
  return undefined;
}

/** `{"amount": "5.99", "currency_code": "<the shop's currency>"}`. */
function isMoney(value: unknown, currencyCode: string): boolean {
  if (!isObject(value)) return false;
  const amount = decimalOf(value.amount);
  return amount !== undefined && value.currency_code === currencyCode;
}

/** `{"value": 2.5, "unit": "kg"}` with a unit of the type. */
function measurementProblem(value: unknown, units: readonly string[]): string | undefined {
  if (!isObject(value) || !('value' in value) || !('unit' in value)) return M.measurementShape;
  const amount = decimalOf(value.value);
  if (amount === undefined || amount < 0) return M.measurementNumber;
  const unit = shortUnit(value.unit);
  return unit !== undefined && units.includes(unit) ? undefined : M.measurementUnit;
}

/** `{"value": "3.5", "scale_min": "1.0", "scale_max": "5.0"}`, the value within the scale. */
function isRating(value: unknown): boolean {
  if (!isObject(value)) return false;
  const [rating, min, max] = [value.value, value.scale_min, value.scale_max].map(decimalOf);
  return (
    rating !== undefined &&
    min !== undefined &&
    max !== undefined &&
    min < max &&
    rating >= min &&
    rating <= max
  );
}

/** A gid of one of the spec's types; for products and variants, one that exists in the shop. */
function referenceProblem(spec: MetafieldTypeSpec, value: string, ctx: ValueContext): string | undefined {
  const match = /^gid:\/\/shopify\/([A-Za-z]+)\/\d+$/.exec(value);
  if (!match || !spec.references?.includes(match[1])) return M.reference(spec.label ?? 'resource');
  return ctx.referenceExists(value) === false ? M.missingReference(value) : undefined;
}
