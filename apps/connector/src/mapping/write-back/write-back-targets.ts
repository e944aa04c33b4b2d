import { type AttributeType, USER_ATTRIBUTE_TYPES } from '#lib/catalog-contract';
import type { WriteBackTarget } from '../model/mapping-file.js';
import { isMetafieldType, METAFIELD_NAME_RULES, nearestMetafieldType } from './metafield-types.data.js';

type Source = AttributeType;

/**
 * Which catalog attribute types each write-back target takes, and so which conversions the
 * connector implements (`src/enrichment/values/`). Everything else is refused at boot: a catalog
 * value the target cannot hold would otherwise fail on every push.
 */
export const FIELD_TARGET_SOURCES: Readonly<Record<string, readonly Source[]>> = {
  // Product title: one line (Shopify's limit: 255 characters).
  title: ['TEXT', 'DROPDOWN'],
  // HTML as is; plain text becomes escaped paragraphs.
  descriptionHtml: ['RICH_TEXT', 'TEXT', 'LONG_TEXT'],
  // Plain text; line breaks become spaces.
  'seo.title': ['TEXT', 'DROPDOWN', 'LONG_TEXT'],
  // Plain text; HTML is reduced to its text.
  'seo.description': ['TEXT', 'LONG_TEXT', 'RICH_TEXT'],
  // Each value is a tag, added with tagsAdd.
  tags: ['MULTI_SELECT', 'DROPDOWN', 'TEXT'],
};

// Every type an account may configure, and MEASURE (system-managed, but readable).
const ALL_USER_TYPES: readonly Source[] = [...USER_ATTRIBUTE_TYPES, 'MEASURE'];

/** Metafield type -> the catalog types converted to it (see `convertForMetafield`). */
export const METAFIELD_TARGET_SOURCES: Readonly<Record<string, readonly Source[]>> = {
  single_line_text_field: ['TEXT', 'DROPDOWN', 'URL', 'NUMBER', 'PRICE', 'MEASURE', 'DATE', 'DATETIME'],
  multi_line_text_field: ['TEXT', 'LONG_TEXT', 'RICH_TEXT', 'DROPDOWN'],
  rich_text_field: ['RICH_TEXT', 'TEXT', 'LONG_TEXT'],
  'list.single_line_text_field': ['MULTI_SELECT', 'LONG_TEXT', 'TEXT', 'DROPDOWN'],
  number_integer: ['NUMBER'],
  number_decimal: ['NUMBER', 'PRICE'],
  boolean: ['DROPDOWN', 'TEXT'],
  color: ['DROPDOWN', 'TEXT'],
  date: ['DATE'],
  date_time: ['DATETIME', 'DATE'],
  url: ['URL'],
  money: ['PRICE'],
  dimension: ['MEASURE'],
  volume: ['MEASURE'],
  weight: ['MEASURE'],
  json: ALL_USER_TYPES,
};

/** The catalog types a target takes (empty: none). */
export function sourcesFor(target: WriteBackTarget): readonly Source[] {
  switch (target.kind) {
    case 'field':
      return FIELD_TARGET_SOURCES[target.field] ?? [];
    case 'tags':
      return FIELD_TARGET_SOURCES.tags ?? [];
    case 'metafield':
      return METAFIELD_TARGET_SOURCES[target.type] ?? [];
  }
}

/**
 * Why a catalog attribute of `type` cannot be written to `target`, or undefined when it can.
 * The message says what the target takes, so an operator can pick another type or target.
 */
export function compatibilityProblem(type: Source, target: WriteBackTarget): string | undefined {
  const sources = sourcesFor(target);
  if (sources.includes(type)) return undefined;
  const name =
    target.kind === 'metafield'
      ? `a metafield of type "${target.type}"`
      : target.kind === 'tags'
        ? 'tags'
        : `"${target.field}"`;
  if (sources.length === 0) {
    const supported = Object.keys(METAFIELD_TARGET_SOURCES).join(', ');
    return `the connector writes no catalog value to ${name} (metafield types it converts to: ${supported})`;
  }
  const fits = Object.entries(METAFIELD_TARGET_SOURCES)
    .filter(([, types]) => types !== ALL_USER_TYPES && types.includes(type))
    .map(([metafieldType]) => metafieldType);
  const hint =
    fits.length > 0 ? `; a ${type} value fits metafields of type ${fits.join(', ')} (or json)` : '';
  return `${name} takes ${sources.join(', ')} values, the attribute is ${type}${hint}`;
}

/**
 * Checks a metafield target without the catalog: a known Shopify type, a namespace that is this
 * app's (`$app`, `$app:<name>`) or a plain one of 3-255 letters, digits, `-`, `_` (never
 * `shopify` nor another app's `app--<id>`), and a key of 2-64 such characters.
 */
export function metafieldTargetProblems(target: {
  namespace: string;
  key: string;
  type: string;
}): Array<{ at: 'namespace' | 'key' | 'type'; message: string }> {
  const problems: Array<{ at: 'namespace' | 'key' | 'type'; message: string }> = [];
  const rules = METAFIELD_NAME_RULES;
  const { namespace, key, type } = target;
  const app = /^\$app(?::(.*))?$/.exec(namespace);
  if (app) {
    const sub = app[1];
    if (sub !== undefined && !rules.characters.test(sub)) {
      problems.push({
        at: 'namespace',
        message: `"${namespace}": after "$app:" only letters, digits, "-" and "_" may follow`,
      });
    }
  } else if (namespace === 'shopify' || /^app--/.test(namespace)) {
    problems.push({
      at: 'namespace',
      message: `"${namespace}" is reserved (Shopify's, or an app's by id): write "$app" or "$app:<name>" for the connector's own namespace`,
    });
  } else if (
    namespace.length < rules.namespace.min ||
    namespace.length > rules.namespace.max ||
    !rules.characters.test(namespace)
  ) {
    problems.push({
      at: 'namespace',
      message: `"${namespace}" must be ${rules.namespace.min}-${rules.namespace.max} letters, digits, "-" or "_" (or "$app", "$app:<name>")`,
    });
  }
  if (key.length < rules.key.min || key.length > rules.key.max || !rules.characters.test(key)) {
    problems.push({
      at: 'key',
      message: `"${key}" must be ${rules.key.min}-${rules.key.max} letters, digits, "-" or "_"`,
    });
  }
  const base = type.startsWith('list.') ? type.slice('list.'.length) : undefined;
  if (base !== undefined && isMetafieldType(base) && !isMetafieldType(type)) {
    problems.push({
      at: 'type',
      message: `"${base}" has no list form: "${type}" is not a Shopify metafield type`,
    });
  } else if (!isMetafieldType(type)) {
    const near = nearestMetafieldType(type);
    problems.push({
      at: 'type',
      message: `"${type}" is not a Shopify metafield type${near ? ` (did you mean "${near}"?)` : ''}`,
    });
  }
  return problems;
}
