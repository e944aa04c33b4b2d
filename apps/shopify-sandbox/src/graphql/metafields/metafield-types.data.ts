/**
 * Shopify's metafield types and their limits, as data: what `metafieldsSet` (and the
 * `metafields` inputs of product and variant mutations) check a value against.
 *
 * Sources (read 2026-11; the docs corpus of the project's search tool):
 * - Types and value formats: "List of data types",
 *   https://shopify.dev/docs/apps/build/metafields/list-of-data-types
 *   (units of dimension/volume/weight, url schemes, number ranges, money/rating/link shapes,
 *   rich text formatting), and the `metafieldDefinitionTypes` example response,
 *   https://shopify.dev/docs/api/admin-graphql/latest/queries/metafieldDefinitionTypes
 *   (the type names, including `language`, `link`, `company_reference`, `order_reference`).
 * - Size limits: "Metafield limits",
 *   https://shopify.dev/docs/apps/build/metafields/metafield-limits : most types 64KB
 *   (65,536 bytes), `id` and `url` 2KB, `json` 128KB (for API versions from 2026-04,
 *   https://shopify.dev/changelog/reduced-metafield-value-sizes); lists at most 128 items
 *   (256 for metaobject references), each item with its single type's limit.
 * - Namespace and key rules: the `MetafieldsSetInput` descriptions of the 2026-07 schema
 *   (schema/admin-2026-07.introspection.json.gz): namespace 3-255 characters, key 2-64, both
 *   of letters, digits, `-` and `_`.
 * - Reference targets: the `MetafieldReference` union and `File` interface of that schema.
 * - Error codes: the schema's `MetafieldsSetUserErrorCode` enum,
 *   https://shopify.dev/docs/api/admin-graphql/latest/enums/MetafieldsSetUserErrorCode
 */
export const METAFIELD_SOURCES = {
  types: 'https://shopify.dev/docs/apps/build/metafields/list-of-data-types',
  definitionTypes: 'https://shopify.dev/docs/api/admin-graphql/latest/queries/metafieldDefinitionTypes',
  limits: 'https://shopify.dev/docs/apps/build/metafields/metafield-limits',
  errorCodes: 'https://shopify.dev/docs/api/admin-graphql/latest/enums/MetafieldsSetUserErrorCode',
} as const;

/** How a value of the type is checked (see metafield-value.ts). */
export type MetafieldValueKind =
  | 'boolean'
  | 'color'
  | 'date'
  | 'date_time'
  | 'measurement'
  | 'id'
  | 'json'
  | 'language'
  | 'link'
  | 'money'
  | 'multi_line_text'
  | 'number_decimal'
  | 'number_integer'
  | 'rating'
  | 'reference'
  | 'rich_text'
  | 'single_line_text'
  | 'url';

/** What the sandbox knows of one metafield type: how to check a value, whether it has a list form, its size limit. */
export interface MetafieldTypeSpec {
  kind: MetafieldValueKind;
  /** Whether `list.<name>` exists. */
  list: boolean;
  /** Largest value in UTF-8 bytes (for a list: of each item). */
  maxBytes: number;
  /** For references: the gid types a value may name, and a label for messages. */
  references?: readonly string[];
  label?: string;
  /** For measurements: the accepted units. */
  units?: readonly string[];
}

/** 64KB: the size limit of most types. */
export const DEFAULT_MAX_BYTES = 65_536;
/** Items a list value may hold; metaobject reference lists may hold 256. */
export const LIST_MAX_ITEMS = 128;
export const METAOBJECT_LIST_MAX_ITEMS = 256;

const text = (kind: MetafieldValueKind, list: boolean, maxBytes = DEFAULT_MAX_BYTES): MetafieldTypeSpec => ({
  kind,
  list,
  maxBytes,
});
const reference = (label: string, ...references: string[]): MetafieldTypeSpec => ({
  kind: 'reference',
  list: true,
  maxBytes: DEFAULT_MAX_BYTES,
  references,
  label,
});
const measurement = (...units: string[]): MetafieldTypeSpec => ({
  kind: 'measurement',
  list: true,
  maxBytes: DEFAULT_MAX_BYTES,
  units,
});

/** Every metafield type Shopify documents, by name. */
export const METAFIELD_TYPES: Readonly<Record<string, MetafieldTypeSpec>> = {
  boolean: text('boolean', false),
  color: text('color', true),
  date: text('date', true),
  date_time: text('date_time', true),
  dimension: measurement('in', 'ft', 'yd', 'mm', 'cm', 'm'),
  id: text('id', true, 2_048),
  json: text('json', true, 131_072),
  language: text('language', false),
  link: text('link', true),
  money: text('money', true),
  multi_line_text_field: text('multi_line_text', true),
  number_decimal: text('number_decimal', true),
  number_integer: text('number_integer', true),
  rating: text('rating', true),
  rich_text_field: text('rich_text', false),
  single_line_text_field: text('single_line_text', true),
  url: text('url', true, 2_048),
  volume: measurement(
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
  ),
  weight: measurement('oz', 'lb', 'g', 'kg'),
  article_reference: reference('article', 'Article'),
  collection_reference: reference('collection', 'Collection'),
  company_reference: reference('company', 'Company'),
  customer_reference: reference('customer', 'Customer'),
  file_reference: reference('file', 'GenericFile', 'MediaImage', 'Model3d', 'Video'),
  metaobject_reference: reference('metaobject', 'Metaobject'),
  mixed_reference: reference('metaobject', 'Metaobject'),
  order_reference: reference('order', 'Order'),
  page_reference: reference('page', 'Page'),
  product_reference: reference('product', 'Product'),
  product_taxonomy_value_reference: reference('product taxonomy value', 'TaxonomyValue'),
  variant_reference: reference('product variant', 'ProductVariant'),
};

/** Ranges from "List of data types": integers to ±9,007,199,254,740,991; decimals ±9999999999999.999999999. */
export const NUMBER_INTEGER_MAX = 9_007_199_254_740_991n;
export const NUMBER_DECIMAL_MAX_INTEGER_DIGITS = 13;
export const NUMBER_DECIMAL_MAX_FRACTION_DIGITS = 9;

/** Schemes a `url` (and a `link`'s url) may use. */
export const URL_SCHEMES = ['https', 'http', 'mailto', 'sms', 'tel'] as const;

/** Node types of a `rich_text_field` document (rich text formatting, "List of data types"). */
export const RICH_TEXT = {
  root: 'root',
  blocks: ['paragraph', 'heading', 'list'],
  inline: ['text', 'link'],
  listItem: 'list-item',
  listTypes: ['ordered', 'unordered'],
  headingLevels: [1, 2, 3, 4, 5, 6],
} as const;

/** Namespace and key rules of `MetafieldsSetInput` (2026-07 schema). */
export const NAMESPACE_LENGTH = { min: 3, max: 255 } as const;
export const KEY_LENGTH = { min: 2, max: 64 } as const;
export const NAME_CHARACTERS = /^[A-Za-z0-9_-]*$/;

/**
 * Messages of `metafieldsSet` user errors. The codes are the schema's; the wording of the
 * value messages is Shopify's as seen in real responses quoted by public apps and API
 * emulators ("Value must be a single line text string.", "Value can't be blank.", ...); the
 * rest follow Rails' validation wording, which Shopify's other messages use.
 */
export const METAFIELD_MESSAGES = {
  blankValue: "Value can't be blank.",
  blankType: "Type can't be blank.",
  unknownType: (type: string) => `Type '${type}' is not a valid metafield type.`,
  typeMismatch: (existing: string) => `Type must be ${existing}, the type of the existing metafield.`,
  tooBig: (max: number) => `Value can't exceed ${max} bytes.`,
  namespaceTooShort: `Namespace is too short (minimum is ${NAMESPACE_LENGTH.min} characters)`,
  namespaceTooLong: `Namespace is too long (maximum is ${NAMESPACE_LENGTH.max} characters)`,
  namespaceCharacters: 'Namespace contains one or more invalid characters.',
  keyTooShort: `Key is too short (minimum is ${KEY_LENGTH.min} characters)`,
  keyTooLong: `Key is too long (maximum is ${KEY_LENGTH.max} characters)`,
  keyCharacters: 'Key contains one or more invalid characters.',
  notAuthorized: 'Access to this namespace and key on Metafields for this resource type is not allowed.',
  duplicate: 'The same ownerId, namespace and key appear more than once in this request.',
  ownerMissing: 'Owner does not exist.',
  invalidDigest: 'The compareDigest is invalid.',
  staleDigest:
    'The resource has been updated since it was loaded. Try again with an updated `compareDigest` value.',
  tooMany: (max: number) => `Exceeded the maximum metafields input limit of ${max}.`,
  value: {
    boolean: 'Value must be true or false.',
    color: 'Value must be a hex color code.',
    date: 'Value must be in YYYY-MM-DD format.',
    dateTime: 'Value must be in YYYY-MM-DDTHH:MM:SS format.',
    integer: 'Value must be an integer.',
    decimal: 'Value must be a decimal.',
    json: 'Value is invalid JSON.',
    singleLine: 'Value must be a single line text string.',
    url: `Value cannot have an empty scheme (protocol), must include one of the following URL schemes: ["http", "https", "mailto", "sms", "tel"].`,
    link: 'Value must be a valid link.',
    money:
      "Value must be a stringified JSON object with amount (numeric) and currency_code (string matching the shop's currency) fields.",
    measurementShape: 'Value must contain unit and value.',
    measurementNumber: 'Value must be a non-negative number.',
    measurementUnit: 'Value must be a supported unit.',
    rating: 'Value must be a rating.',
    richText: 'Value must be a rich text document (a JSON object of type "root").',
    language: 'Value must be a language code.',
    reference: (label: string) => `Value must be a valid ${label} reference.`,
    missingReference: (gid: string) => `Value references non-existent resource ${gid}.`,
    list: 'Value must be a JSON array.',
    listTooLong: (max: number) => `Value has more than ${max} elements.`,
  },
} as const;
