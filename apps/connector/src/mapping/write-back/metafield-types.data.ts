/**
 * Shopify's metafield types, their value formats and limits, as the connector needs them to
 * check write-back targets at boot and to convert catalog values. Facts copied (2026-11) from
 * Shopify's documentation (the project's `search` tool, docs corpus):
 *
 * - Types, value formats, measurement units, url schemes, number ranges, rich text shape:
 *   "List of data types", https://shopify.dev/docs/apps/build/metafields/list-of-data-types
 *   (rich text: #rich-text-formatting, the format the Hydrogen `RichText` component renders:
 *   https://shopify.dev/docs/api/hydrogen/latest/components/richtext).
 * - Sizes: "Metafield limits", https://shopify.dev/docs/apps/build/metafields/metafield-limits
 *   (most types 64KB = 65,536 bytes; `id` and `url` 2KB; `json` 128KB from API 2026-04 on:
 *   https://shopify.dev/changelog/reduced-metafield-value-sizes; lists at most 128 items,
 *   metaobject reference lists 256; each item with its single type's limit).
 * - App-owned namespaces: `$app` and `$app:<name>` resolve to `app--<app id>[--<name>]`,
 *   https://shopify.dev/docs/apps/build/custom-data/ownership
 * - Namespace 3-255 and key 2-64 characters of letters, digits, `-` and `_`: the descriptions of
 *   `MetafieldsSetInput` in the Admin GraphQL 2026-07 schema
 *   (`apps/connector/test/fixtures/shopify/admin-graphql-2026-07.introspection.json.gz`).
 * - At most 25 metafields per `metafieldsSet`: the mutation's description in that schema.
 */
export const METAFIELD_SOURCES = {
  types: 'https://shopify.dev/docs/apps/build/metafields/list-of-data-types',
  limits: 'https://shopify.dev/docs/apps/build/metafields/metafield-limits',
  jsonLimit: 'https://shopify.dev/changelog/reduced-metafield-value-sizes',
  ownership: 'https://shopify.dev/docs/apps/build/custom-data/ownership',
} as const;

/** Every single (non-list) metafield type Shopify documents, and whether a `list.` form exists. */
export const METAFIELD_BASE_TYPES: Readonly<Record<string, { list: boolean }>> = {
  boolean: { list: false },
  color: { list: true },
  date: { list: true },
  date_time: { list: true },
  dimension: { list: true },
  id: { list: false },
  json: { list: false },
  language: { list: false },
  link: { list: true },
  money: { list: false },
  multi_line_text_field: { list: false },
  number_decimal: { list: true },
  number_integer: { list: true },
  rating: { list: true },
  rich_text_field: { list: false },
  single_line_text_field: { list: true },
  url: { list: true },
  volume: { list: true },
  weight: { list: true },
  article_reference: { list: true },
  collection_reference: { list: true },
  company_reference: { list: true },
  customer_reference: { list: true },
  file_reference: { list: true },
  metaobject_reference: { list: true },
  mixed_reference: { list: true },
  order_reference: { list: true },
  page_reference: { list: true },
  product_reference: { list: true },
  product_taxonomy_value_reference: { list: true },
  variant_reference: { list: true },
};

/** Whether `type` is one of Shopify's metafield types (`list.<type>` included). */
export function isMetafieldType(type: string): boolean {
  if (type.startsWith('list.')) return METAFIELD_BASE_TYPES[type.slice('list.'.length)]?.list === true;
  return METAFIELD_BASE_TYPES[type] !== undefined;
}

/** The closest known type name, for "did you mean" messages. */
export function nearestMetafieldType(type: string): string | undefined {
  const names = Object.keys(METAFIELD_BASE_TYPES).flatMap((n) =>
    METAFIELD_BASE_TYPES[n]?.list ? [n, `list.${n}`] : [n],
  );
  const lower = type.toLowerCase();
  return (
    names.find((n) => n === lower) ??
    names.find((n) => n.startsWith(lower) || lower.startsWith(n)) ??
    names.find((n) => n.replace(/_field$/, '') === lower.replace(/_field$/, ''))
  );
}

/** Largest value in bytes (UTF-8): 64KB for most types (per list item for lists). */
export const METAFIELD_MAX_BYTES = 65_536;
/** `id` and `url` (per item). */
export const METAFIELD_SMALL_MAX_BYTES = 2_048;
/** `json` writes from API 2026-04 on. */
export const METAFIELD_JSON_MAX_BYTES = 131_072;
/** Items of a list value (metaobject reference lists: 256). */
export const METAFIELD_LIST_MAX_ITEMS = 128;
/** Metafields per `metafieldsSet` call. */
export const METAFIELDS_SET_MAX = 25;

/** The byte limit of one value (one item of a list) of a type. */
export function maxBytesOf(type: string): number {
  const base = type.startsWith('list.') ? type.slice('list.'.length) : type;
  if (base === 'id' || base === 'url') return METAFIELD_SMALL_MAX_BYTES;
  if (base === 'json') return METAFIELD_JSON_MAX_BYTES;
  return METAFIELD_MAX_BYTES;
}

/** Units of the measurement types. */
export const MEASUREMENT_UNITS: Readonly<Record<'dimension' | 'volume' | 'weight', readonly string[]>> = {
  dimension: ['in', 'ft', 'yd', 'mm', 'cm', 'm'],
  volume: [
    'ml',
    'cl',
    'l',
    'm3',
    'us_fl_oz',
    'us_pt',
    'us_qt',
    'us_gal',
    'imp_fl_oz',
    'imp_pt',
    'imp_qt',
    'imp_gal',
  ],
  weight: ['oz', 'lb', 'g', 'kg'],
};

/** Schemes a `url` value may use. */
export const URL_SCHEMES = ['https', 'http', 'mailto', 'sms', 'tel'] as const;

/** `number_integer`: -9,007,199,254,740,991 to 9,007,199,254,740,991. */
export const NUMBER_INTEGER_MAX = 9_007_199_254_740_991n;
/** `number_decimal`: up to 13 integer digits and 9 decimals. */
export const NUMBER_DECIMAL_DIGITS = { integer: 13, fraction: 9 } as const;

/**
 * Node types of a `rich_text_field` document: a `root` of blocks (`paragraph`, `heading` with a
 * `level` 1-6, `list` with a `listType` of `list-item`s), holding `text` (`value`, optional
 * `bold`/`italic`) and `link` (`url`, optional `title`/`target`, text children) nodes.
 */
export const RICH_TEXT_NODES = {
  blocks: ['paragraph', 'heading', 'list'],
  inline: ['text', 'link'],
  listTypes: ['ordered', 'unordered'],
} as const;

/** Namespace and key rules of `MetafieldsSetInput` (2026-07 schema). */
export const METAFIELD_NAME_RULES = {
  namespace: { min: 3, max: 255 },
  key: { min: 2, max: 64 },
  characters: /^[A-Za-z0-9_-]+$/,
} as const;
