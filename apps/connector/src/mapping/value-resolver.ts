import { type AttributeDefinition, type AttributeValue, CatalogLimits } from '#lib/catalog-contract';
import type { ValueSettings } from './model/mapping-file.js';
import type { TaxonomyIndex } from './taxonomy-index.js';

/** A mapping entry ready to turn Shopify values into one attribute's values. */
export interface ResolvableEntry extends ValueSettings {
  /** Names the entry in gaps: `variant.options.Color`. */
  path: string;
  definition: AttributeDefinition;
  /** PRICE: `shop`, a currency code, or null (no currency). */
  currency: string | null;
  default: string | null;
}

/** A value for the attribute (`null`: none), or a gap: the attribute is left out of the record. */
export type Resolution =
  | { kind: 'value'; value: AttributeValue }
  | { kind: 'gap'; reason: 'unknown-value' | 'invalid-value'; values: string[]; message: string };

export interface ResolveContext {
  taxonomy: TaxonomyIndex;
  /** The shop's currency (`shop { currencyCode }`), for entries with `currency: shop`. */
  shopCurrency: string | null;
}

const DECIMAL = /^-?\d+(\.\d+)?$/;
const PRICE = /^\d+(\.\d{1,4})?$/;
const PRICE_WITH_CURRENCY = /^\d+(\.\d{1,4})? [A-Z]{3}$/;
const MEASURE = /^-?\d+(\.\d+)? ?[A-Za-z%"']{1,10}$/;
const DATE_PREFIX = /^(\d{4}-\d{2}-\d{2})/;
const DATETIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:\d{2})$/;

/**
 * Turns a Shopify value into the attribute's wire value (spec: strings, arrays of strings, null),
 * through the entry's value map, then the attribute's type: allowed values matched ignoring case
 * (unless `caseSensitive`), categories that must be leaves, prices with the currency the entry
 * asks for. A value that does not fit is a gap, never a call the catalog would refuse.
 */
export function resolveValue(
  entry: ResolvableEntry,
  raw: string | string[] | null,
  context: ResolveContext,
): Resolution {
  if (raw === null)
    return entry.default === null ? { kind: 'value', value: null } : coerce(entry, [entry.default], context);
  const items = (Array.isArray(raw) ? raw : [raw]).flatMap((item) => {
    const mapped = mapValue(entry, item);
    return mapped === null ? [] : [mapped];
  });
  if (items.length === 0) return { kind: 'value', value: null };
  // A list source (a `list.*` metafield: its type is known only once read) holds one value for
  // any attribute but MULTI_SELECT; more is a gap, never a silent first item.
  if (items.length > 1 && entry.definition.type !== 'MULTI_SELECT') {
    return {
      kind: 'gap',
      reason: 'invalid-value',
      values: items,
      message: `a list of ${items.length} values does not fit ${entry.definition.key} (${entry.definition.type}): only a MULTI_SELECT attribute takes several`,
    };
  }
  return coerce(entry, items, context);
}

/** The value map's target for `value` (null: mapped to nothing), or the value itself. */
function mapValue(entry: ResolvableEntry, value: string): string | null {
  if (!entry.values) return value;
  const key = normalise(entry, value);
  const hit = entry.values.find(([from]) => normalise(entry, from) === key);
  return hit ? hit[1] : value;
}

function coerce(entry: ResolvableEntry, items: string[], context: ResolveContext): Resolution {
  const def = entry.definition;
  const first = items[0] as string;
  const invalid = (why: string): Resolution => ({
    kind: 'gap',
    reason: 'invalid-value',
    values: items,
    message: `"${first}" does not fit ${def.key} (${def.type}): ${why}`,
  });
  switch (def.type) {
    case 'DROPDOWN': {
      const match = allowedMatch(entry, first);
      return match === undefined ? unknown(entry, [first]) : { kind: 'value', value: match };
    }
    case 'MULTI_SELECT': {
      const matched: string[] = [];
      const missing: string[] = [];
      for (const item of items) {
        const match = allowedMatch(entry, item);
        if (match === undefined) missing.push(item);
        else if (!matched.includes(match)) matched.push(match);
      }
      if (missing.length > 0 && entry.unknownValues === 'gap') return unknown(entry, missing);
      return { kind: 'value', value: matched.length === 0 ? null : matched };
    }
    case 'TREE_NODE': {
      const id = context.taxonomy.has(first)
        ? first
        : entry.caseSensitive
          ? undefined
          : context.taxonomy.findIgnoringCase(first.trim());
      if (id === undefined || !context.taxonomy.isLeaf(id))
        return notLeaf(entry, first, id, context.taxonomy);
      return { kind: 'value', value: id };
    }
    case 'TEXT':
      if (/[\r\n]/.test(first)) return invalid('short text has no line breaks');
      // The spec counts characters: code points, not UTF-16 units (an emoji is one).
      if ([...first].length > CatalogLimits.SHORT_TEXT_LENGTH) {
        return invalid(`longer than ${CatalogLimits.SHORT_TEXT_LENGTH} characters (${[...first].length})`);
      }
      return { kind: 'value', value: first };
    case 'LONG_TEXT':
    case 'RICH_TEXT':
      return { kind: 'value', value: first };
    case 'NUMBER':
      return DECIMAL.test(first.trim())
        ? { kind: 'value', value: first.trim() }
        : invalid('not a decimal number');
    case 'PRICE':
      return price(entry, first.trim(), context, invalid);
    case 'MEASURE':
      return MEASURE.test(first.trim())
        ? { kind: 'value', value: first.trim() }
        : invalid('not a number and a unit');
    case 'DATE': {
      const date = DATE_PREFIX.exec(first.trim())?.[1];
      return date && !Number.isNaN(Date.parse(date)) ? { kind: 'value', value: date } : invalid('not a date');
    }
    case 'DATETIME':
      return DATETIME.test(first.trim()) && !Number.isNaN(Date.parse(first))
        ? { kind: 'value', value: first.trim() }
        : invalid('not an ISO 8601 date-time with an offset');
    case 'URL':
      return isHttpUrl(first.trim()) ? { kind: 'value', value: first.trim() } : invalid('not an http(s) URL');
    case 'MEDIA_GALLERY':
      return invalid('media is synced by the media step, not by mapping entries');
    default: {
      const unreachable: never = def.type;
      return invalid(`unsupported type ${String(unreachable)}`);
    }
  }
}

function price(
  entry: ResolvableEntry,
  value: string,
  context: ResolveContext,
  invalid: (why: string) => Resolution,
): Resolution {
  if (PRICE_WITH_CURRENCY.test(value)) return { kind: 'value', value };
  if (!PRICE.test(value)) return invalid('not a price with at most 4 decimals');
  const currency = entry.currency === 'shop' ? context.shopCurrency : entry.currency;
  if (entry.currency === 'shop' && !currency) return invalid("the shop's currency is not known");
  return { kind: 'value', value: currency ? `${value} ${currency}` : value };
}

/** The allowed value `value` stands for, as the account spells it. */
function allowedMatch(entry: ResolvableEntry, value: string): string | undefined {
  const allowed = entry.definition.option.values ?? [];
  if (allowed.includes(value)) return value;
  if (entry.caseSensitive) return undefined;
  const key = normalise(entry, value);
  return allowed.find((candidate) => normalise(entry, candidate) === key);
}

/**
 * A category value that is no leaf, in words an operator acts on: a category of the account that
 * has children (map it to one of its leaves), or no category of the account at all.
 */
function notLeaf(
  entry: ResolvableEntry,
  value: string,
  id: string | undefined,
  taxonomy: TaxonomyIndex,
): Resolution {
  const message =
    id === undefined
      ? `category "${value}" is not a category of the account: map it to a leaf category in ${entry.path}.values, or add it to the catalog's taxonomy`
      : `category "${value}" is not a leaf category of the account (it has ${taxonomy.childrenOf(id).join(', ')}): map it to one of its leaves in ${entry.path}.values`;
  return { kind: 'gap', reason: 'unknown-value', values: [value], message };
}

function unknown(entry: ResolvableEntry, values: string[]): Resolution {
  const list = values.map((v) => `"${v}"`).join(', ');
  const what = `an allowed value of ${entry.definition.key}`;
  return {
    kind: 'gap',
    reason: 'unknown-value',
    values,
    message: `${list} ${values.length === 1 ? 'is' : 'are'} not ${what}: add ${values.length === 1 ? 'it' : 'them'} to ${entry.path}.values, or to the attribute in the catalog`,
  };
}

/** How values are compared: trimmed, and ignoring case unless the entry is case-sensitive. */
export function normalise(entry: Pick<ValueSettings, 'caseSensitive'>, value: string): string {
  return entry.caseSensitive ? value.trim() : value.trim().toLowerCase();
}

function isHttpUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return url.protocol === 'http:' || url.protocol === 'https:';
  } catch {
    return false;
  }
}
