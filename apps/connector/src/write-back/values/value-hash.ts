import { digest } from '../../mapping/index.js';

/** Metafield types whose value is JSON (compared parsed, so key order and spacing never matter). */
const JSON_TYPES = /^(json|rich_text_field|money|rating|link|dimension|volume|weight|list\..+)$/;

/**
 * A value as Shopify holds it, in one comparable form: what the connector pushes and what a read
 * or a webhook shows hash alike when they are the same value. Text is trimmed; an empty SEO
 * field is no value; tags compare as a set, ignoring case (Shopify keeps one of each); JSON
 * metafield values compare parsed.
 */
export type ComparableValue =
  | { kind: 'field'; value: string | null }
  | { kind: 'tags'; tags: readonly string[] }
  | { kind: 'metafield'; type: string; value: string | null };

/** The hash of a value in Shopify (`null` value: absent/empty). Stored as the push's value hash. */
export function valueHash(value: ComparableValue): string {
  switch (value.kind) {
    case 'field': {
      const text = value.value?.trim() ?? '';
      return digest(['field', text === '' ? null : text]);
    }
    case 'tags':
      return digest(['tags', [...new Set(value.tags.map((t) => t.trim().toLowerCase()))].sort()]);
    case 'metafield':
      return digest([
        'metafield',
        value.value === null ? null : comparableMetafield(value.type, value.value),
      ]);
  }
}

/** Whether a tag list holds a tag, as Shopify matches them (ignoring case). */
export function hasTag(tags: readonly string[], tag: string): boolean {
  const wanted = tag.trim().toLowerCase();
  return tags.some((t) => t.trim().toLowerCase() === wanted);
}

function comparableMetafield(type: string, value: string): unknown {
  if (!JSON_TYPES.test(type)) return value.trim();
  try {
    return JSON.parse(value) as unknown;
  } catch {
    return value;
  }
}

/**
 * Whether two values are the same value once each is in its normal form, though their text
 * differs. Why: Shopify may answer a value in another form than the one sent (no page says how:
 * see the Shopify sandbox's README); the planner must take `"1.5"` in Shopify for the catalog's
 * `"1.50"`, or it writes the value again at every plan, each write answered in Shopify's form.
 * Hashes stay those of the text (stored push states keep matching); this only decides "same".
 */
export function sameValue(a: ComparableValue, b: ComparableValue): boolean {
  return valueHash(a) === valueHash(b) || digest(normalForm(a)) === digest(normalForm(b));
}

function normalForm(value: ComparableValue): unknown {
  if (value.kind !== 'metafield' || value.value === null) return valueHash(value);
  const base = value.type.replace(/^list\./, '');
  const single = (item: unknown): unknown => normalItem(base, item);
  if (value.type.startsWith('list.')) {
    const items = parseJson(value.value);
    return Array.isArray(items) ? ['list', items.map(single)] : value.value.trim();
  }
  return single(JSON_TYPES.test(value.type) ? parseJson(value.value) : value.value.trim());
}

/** One value (a list item or a single value) in normal form; anything unexpected as it is. */
function normalItem(type: string, item: unknown): unknown {
  switch (type) {
    case 'number_integer':
    case 'number_decimal':
      return decimal(item) ?? item;
    case 'boolean':
    case 'color':
      return typeof item === 'string' ? item.trim().toLowerCase() : item;
    case 'date_time':
      return typeof item === 'string' ? instant(item) : item;
    case 'weight':
    case 'volume':
    case 'dimension': {
      const m = item as { value?: unknown; unit?: unknown } | null;
      return typeof m === 'object' && m !== null
        ? { value: decimal(m.value) ?? m.value, unit: String(m.unit).toLowerCase() }
        : item;
    }
    case 'money': {
      const m = item as { amount?: unknown; currency_code?: unknown } | null;
      return typeof m === 'object' && m !== null
        ? { amount: decimal(m.amount) ?? m.amount, currency_code: String(m.currency_code).toUpperCase() }
        : item;
    }
    case 'rating': {
      const m = item as { value?: unknown; scale_min?: unknown; scale_max?: unknown } | null;
      return typeof m === 'object' && m !== null
        ? {
            value: decimal(m.value) ?? m.value,
            scale_min: decimal(m.scale_min) ?? m.scale_min,
            scale_max: decimal(m.scale_max) ?? m.scale_max,
          }
        : item;
    }
    default:
      return item;
  }
}

/** A decimal number (JSON number or text) without sign noise, leading or trailing zeros. */
function decimal(raw: unknown): string | undefined {
  const text = typeof raw === 'number' && Number.isFinite(raw) ? String(raw) : raw;
  if (typeof text !== 'string') return undefined;
  const match = /^([+-]?)(\d*)(?:\.(\d*))?$/.exec(text.trim());
  if (!match || `${match[2]}${match[3] ?? ''}` === '') return undefined;
  const whole = match[2].replace(/^0+/, '') || '0';
  const fraction = (match[3] ?? '').replace(/0+$/, '');
  const body = fraction === '' ? whole : `${whole}.${fraction}`;
  return match[1] === '-' && body !== '0' ? `-${body}` : body;
}

/** A date and time as its instant (no zone: UTC, as Shopify's help centre reads date_time). */
function instant(text: string): string {
  const trimmed = text.trim();
  const zoned = /(Z|[+-]\d{2}:?\d{2})$/i.test(trimmed) ? trimmed : `${trimmed}Z`;
  const time = Date.parse(zoned);
  return Number.isNaN(time) ? trimmed : new Date(time).toISOString();
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}
