import { shortUnit } from './metafield-normal-form.js';

/**
 * The validation options of metafield definitions, per type, and the check of a value
 * against them. Names from "List of validation options"
 * (https://shopify.dev/docs/apps/build/metafields/list-of-validation-options, read 2026-11-26):
 * minimum/maximum length (`min`, `max`) and `regex` for text, `choices` for single-line text
 * (at most 128), `allowed_domains` for urls, `min`/`max` for numbers, dates, date-times and
 * measurements, `max_precision` for decimals, `scale_min`/`scale_max` for ratings, `schema` for
 * json, and `list.min`/`list.max` on lists. The messages of a refused value are the sandbox's
 * own (Shopify's wording is not documented); the code is `INVALID_VALUE`.
 */
export const VALIDATION_OPTIONS: Readonly<Record<string, readonly string[]>> = {
  single_line_text_field: ['min', 'max', 'regex', 'choices'],
  multi_line_text_field: ['min', 'max', 'regex'],
  number_integer: ['min', 'max'],
  number_decimal: ['min', 'max', 'max_precision'],
  date: ['min', 'max'],
  date_time: ['min', 'max'],
  weight: ['min', 'max'],
  volume: ['min', 'max'],
  dimension: ['min', 'max'],
  rating: ['scale_min', 'scale_max'],
  url: ['allowed_domains'],
  json: ['schema'],
  metaobject_reference: ['metaobject_definition_id'],
  mixed_reference: ['metaobject_definition_ids'],
  file_reference: ['file_type_options'],
};

/** "Single line text metafield predefined choices are limited to 128 values" (metafield limits). */
export const MAX_CHOICES = 128;

export interface Validation {
  name: string;
  value: string;
}

/** A refused option of a definition: its index in `validations`, a create/update error code, a message. */
export interface OptionProblem {
  index: number;
  code: 'INVALID_OPTION' | 'DUPLICATE_OPTION';
  message: string;
}

/** Checks a definition's validations for its type: known names, once each, readable values. */
export function validationOptionProblem(
  type: string,
  validations: readonly Validation[],
): OptionProblem | undefined {
  const list = type.startsWith('list.');
  const base = list ? type.slice('list.'.length) : type;
  const allowed = [...(VALIDATION_OPTIONS[base] ?? []), ...(list ? ['list.min', 'list.max'] : [])];
  const seen = new Set<string>();
  for (const [index, { name, value }] of validations.entries()) {
    if (seen.has(name))
      return {
        index,
        code: 'DUPLICATE_OPTION',
        message: `Validations contains a duplicate option: '${name}'.`,
      };
    seen.add(name);
    if (!allowed.includes(name))
      return { index, code: 'INVALID_OPTION', message: `Validations contains an invalid option: '${name}'.` };
    if (!optionValueReadable(base, name, value))
      return {
        index,
        code: 'INVALID_OPTION',
        message: `Validations has an invalid value for '${name}': '${value}'.`,
      };
  }
  return undefined;
}

function optionValueReadable(base: string, name: string, value: string): boolean {
  switch (name) {
    case 'min':
    case 'max':
      if (base === 'date' || base === 'date_time') return !Number.isNaN(Date.parse(value));
      if (['weight', 'volume', 'dimension'].includes(base)) return measurementOf(value) !== undefined;
      return Number.isFinite(Number(value)) && value.trim() !== '';
    case 'list.min':
    case 'list.max':
    case 'max_precision':
      return /^\d+$/.test(value);
    case 'regex':
      try {
        new RegExp(value, 'u');
        return true;
      } catch {
        return false;
      }
    case 'choices': {
      const choices = jsonOf(value);
      return (
        Array.isArray(choices) && choices.length <= MAX_CHOICES && choices.every((c) => typeof c === 'string')
      );
    }
    case 'allowed_domains': {
      const domains = jsonOf(value);
      return Array.isArray(domains) && domains.every((d) => typeof d === 'string');
    }
    default:
      return true;
  }
}

/** Why a value (already valid for its type) breaks the definition's validations, or undefined. */
export function validationValueProblem(
  type: string,
  value: string,
  validations: readonly Validation[],
): { message: string; elementIndex: number | null } | undefined {
  const option = (name: string) => validations.find((v) => v.name === name)?.value;
  if (!type.startsWith('list.')) {
    const message = elementProblem(type, value, option);
    return message ? { message, elementIndex: null } : undefined;
  }
  const items = jsonOf(value);
  if (!Array.isArray(items)) return undefined;
  const listMin = option('list.min');
  const listMax = option('list.max');
  if (listMin !== undefined && items.length < Number(listMin))
    return { message: `Value must have at least ${listMin} items.`, elementIndex: null };
  if (listMax !== undefined && items.length > Number(listMax))
    return { message: `Value must have at most ${listMax} items.`, elementIndex: null };
  const base = type.slice('list.'.length);
  for (const [index, item] of items.entries()) {
    const text = typeof item === 'string' ? item : JSON.stringify(item);
    const message = elementProblem(base, text, option);
    if (message) return { message, elementIndex: index };
  }
  return undefined;
}

function elementProblem(
  type: string,
  value: string,
  option: (name: string) => string | undefined,
): string | undefined {
  const min = option('min');
  const max = option('max');
  switch (type) {
    case 'single_line_text_field':
    case 'multi_line_text_field': {
      const length = [...value].length;
      if (min !== undefined && length < Number(min)) return `Value has a minimum length of ${min}.`;
      if (max !== undefined && length > Number(max)) return `Value has a maximum length of ${max}.`;
      const regex = option('regex');
      if (regex !== undefined && !new RegExp(`^(?:${regex})$`, 'u').test(value))
        return `Value does not match the regular expression: ${regex}.`;
      const choices = option('choices');
      if (choices !== undefined && !(jsonOf(choices) as string[]).includes(value))
        return `Value does not exist in provided choices: ${choices}.`;
      return undefined;
    }
    case 'number_integer':
    case 'number_decimal': {
      const number = Number(value);
      if (min !== undefined && number < Number(min)) return `Value has a minimum of ${min}.`;
      if (max !== undefined && number > Number(max)) return `Value has a maximum of ${max}.`;
      const precision = option('max_precision');
      const decimals = value.split('.')[1]?.length ?? 0;
      if (precision !== undefined && decimals > Number(precision))
        return `Value has a maximum precision of ${precision}.`;
      return undefined;
    }
    case 'date':
    case 'date_time': {
      const at = Date.parse(value);
      if (min !== undefined && at < Date.parse(min)) return `Value must be on or after ${min}.`;
      if (max !== undefined && at > Date.parse(max)) return `Value must be on or before ${max}.`;
      return undefined;
    }
    case 'weight':
    case 'volume':
    case 'dimension': {
      const given = measurementOf(value);
      const low = min === undefined ? undefined : measurementOf(min);
      const high = max === undefined ? undefined : measurementOf(max);
      if (given === undefined) return undefined;
      if (low !== undefined && given < low) return `Value has a minimum of ${min}.`;
      if (high !== undefined && given > high) return `Value has a maximum of ${max}.`;
      return undefined;
    }
    case 'url': {
      const domains = option('allowed_domains');
      if (domains === undefined) return undefined;
      const host = hostOf(value);
      const allowed = (jsonOf(domains) as string[]).map((d) => d.toLowerCase());
      return host && allowed.some((d) => host === d || host.endsWith(`.${d}`))
        ? undefined
        : `Value must belong to one of the allowed domains: ${domains}.`;
    }
    default:
      return undefined;
  }
}

/** Factors to one base unit per measure (grams, millilitres, millimetres). */
const UNIT_FACTORS: Readonly<Record<string, number>> = {
  g: 1,
  kg: 1000,
  oz: 28.349523125,
  lb: 453.59237,
  ml: 1,
  cl: 10,
  l: 1000,
  m3: 1_000_000,
  us_fl_oz: 29.5735295625,
  us_pt: 473.176473,
  us_qt: 946.352946,
  us_gal: 3785.411784,
  imp_fl_oz: 28.4130625,
  imp_pt: 568.26125,
  imp_qt: 1136.5225,
  imp_gal: 4546.09,
  mm: 1,
  cm: 10,
  m: 1000,
  in: 25.4,
  ft: 304.8,
  yd: 914.4,
};

/** `{"value": 2.5, "unit": "kg"}` in the measure's base unit; undefined when unreadable. */
function measurementOf(text: string): number | undefined {
  const parsed = jsonOf(text) as { value?: unknown; unit?: unknown } | undefined;
  const unit = shortUnit(parsed?.unit);
  const factor = unit === undefined ? undefined : UNIT_FACTORS[unit.toLowerCase()];
  const amount = Number(parsed?.value);
  return factor === undefined || !Number.isFinite(amount) ? undefined : amount * factor;
}

function hostOf(url: string): string | undefined {
  try {
    return new URL(url).hostname.toLowerCase();
  } catch {
    return undefined;
  }
}

function jsonOf(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
