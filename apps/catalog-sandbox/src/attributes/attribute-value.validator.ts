import { type AttributeValue, CatalogLimits, PLATFORM_ID_PATTERN } from '#lib/catalog-contract';
import { CatalogApiError } from '../http/catalog-api.error.js';
import type { Taxonomy } from '../taxonomy/taxonomy.js';
import type { AttributeDef } from './attribute-definition.js';

const DECIMAL = /^-?\d+(\.\d+)?$/;
const PRICE = /^\d+(\.\d{1,4})?( [A-Z]{3})?$/;
const MEASURE = /^-?\d+(\.\d+)? ?[A-Za-z%"']{1,10}$/;
const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const DATETIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,3})?)?(Z|[+-]\d{2}:\d{2})$/;
const LONG_TEXT_MAX = 65_535;
const RICH_TEXT_MAX = 262_144;

/**
 * Checks one attribute value against its definition's type (README, "Attribute values").
 * `null` is accepted here (it clears); callers decide whether clearing is allowed.
 * Throws `invalid_attribute_value`.
 */
export function validateAttributeValue(
  def: AttributeDef,
  value: unknown,
  taxonomy: Taxonomy,
): AttributeValue {
  if (value === null) return null;
  const fail = (message: string): never => {
    throw CatalogApiError.invalidValue(def.key, message);
  };
  if (def.type === 'MULTI_SELECT' || def.type === 'MEDIA_GALLERY') {
    if (!Array.isArray(value) || value.some((v) => typeof v !== 'string'))
      fail('must be an array of strings');
    const items = value as string[];
    if (new Set(items).size !== items.length) fail('must not repeat a value');
    if (def.type === 'MEDIA_GALLERY') {
      if (items.length > CatalogLimits.MEDIA_PER_PRODUCT) {
        fail(`holds at most ${CatalogLimits.MEDIA_PER_PRODUCT} images, got ${items.length}`);
      }
      const bad = items.find((id) => !PLATFORM_ID_PATTERN.test(id));
      if (bad !== undefined) fail(`"${bad}" is not an image id (two letters followed by 8 digits)`);
    } else {
      const bad = items.find((v) => !def.values?.includes(v));
      if (bad !== undefined) fail(`"${bad}" is not one of option.values`);
    }
    return [...items];
  }
  if (typeof value !== 'string') {
    const hint =
      def.type === 'NUMBER' || def.type === 'PRICE' ? ' (numbers and prices are sent as strings)' : '';
    return fail(`must be a string${hint}`);
  }
  checkString(def, value, taxonomy, fail);
  return value;
}

function checkString(def: AttributeDef, value: string, taxonomy: Taxonomy, fail: (m: string) => never): void {
  switch (def.type) {
    case 'TEXT': {
      // Characters, as the spec says: code points (an emoji is one), not UTF-16 units.
      const max = def.maxLength ?? CatalogLimits.SHORT_TEXT_LENGTH;
      const length = [...value].length;
      if (length > max) fail(`is longer than ${max} characters (${length})`);
      if (/[\r\n]/.test(value)) fail('is short text and must not contain line breaks');
      return;
    }
    case 'LONG_TEXT':
    case 'RICH_TEXT': {
      const max = def.maxLength ?? (def.type === 'LONG_TEXT' ? LONG_TEXT_MAX : RICH_TEXT_MAX);
      const length = value.length > max ? [...value].length : value.length;
      if (length > max) fail(`is longer than ${max} characters (${length})`);
      return;
    }
    case 'NUMBER':
      if (!DECIMAL.test(value)) fail(`must be a decimal number as a string, like "12.5", got "${value}"`);
      return;
    case 'PRICE':
      if (!PRICE.test(value))
        fail(`must be a price as a string, like "19.99" or "19.99 EUR", got "${value}"`);
      return;
    case 'MEASURE':
      if (!MEASURE.test(value)) fail(`must be a number and a unit, like "12.5 cm", got "${value}"`);
      return;
    case 'DATE':
      if (!isCalendarDate(value)) fail(`must be a date YYYY-MM-DD, got "${value}"`);
      return;
    case 'DATETIME':
      if (!DATETIME.test(value) || Number.isNaN(Date.parse(value))) {
        fail(`must be an ISO 8601 date-time with an offset, like "2026-01-31T12:00:00Z", got "${value}"`);
      }
      return;
    case 'URL':
      if (!isHttpUrl(value)) fail(`must be an absolute http(s) URL, got "${value}"`);
      return;
    case 'DROPDOWN':
      if (!def.values?.includes(value)) fail(`"${value}" is not one of option.values`);
      return;
    case 'TREE_NODE':
      if (!taxonomy.has(value)) fail(`"${value}" is not a category of this account`);
      if (!taxonomy.isLeaf(value)) fail(`"${value}" is not a leaf category (only leaves may be assigned)`);
      return;
    case 'MULTI_SELECT':
    case 'MEDIA_GALLERY':
      fail('must be an array of strings');
      return;
    default: {
      const unreachable: never = def.type;
      fail(`has an unsupported type ${String(unreachable)}`);
    }
  }
}

function isCalendarDate(value: string): boolean {
  const m = DATE.exec(value);
  if (!m) return false;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const date = new Date(Date.UTC(y, mo - 1, d));
  return date.getUTCFullYear() === y && date.getUTCMonth() === mo - 1 && date.getUTCDate() === d;
}

function isHttpUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return url.protocol === 'http:' || url.protocol === 'https:';
  } catch {
    return false;
  }
}
