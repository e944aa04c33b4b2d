import type { FieldEntry, OptionEntry, ValueMap, ValueSettings } from '../model/mapping-file.js';
import { pathText } from '../model/mapping-problem.js';
import {
  METAFIELD_PREFIX,
  metafieldSource,
  PRODUCT_SOURCE_FIELDS,
  VARIANT_SOURCE_FIELDS,
} from '../model/source-fields.js';
import { METAFIELD_NAME_RULES } from '../write-back/metafield-types.data.js';
import { describe, isMap, type Path, type RawMap, type RawReader } from './raw-reader.js';

const VALUE_KEYS = ['attribute', 'values', 'caseSensitive', 'unknownValues'] as const;
const FIELD_KEYS = [...VALUE_KEYS, 'currency', 'default'] as const;
const VARIANT_FIELD_KEYS = [...FIELD_KEYS, 'parent'] as const;
const OPTION_KEYS = [...VALUE_KEYS, 'aliases'] as const;
const CURRENCY = /^[A-Z]{3}$/;

/**
 * Reads the `product` or `variant` section: Shopify field -> attribute key, an entry object, or a
 * list of them (one field feeding several attributes, e.g. `barcode: [gtin, productModel]`).
 * The `variant` section also holds `options`.
 */
export function readFieldSection(
  reader: RawReader,
  section: RawMap,
  level: 'product' | 'variant',
): { entries: FieldEntry[]; options: OptionEntry[] } {
  const fields: Record<string, unknown> = level === 'product' ? PRODUCT_SOURCE_FIELDS : VARIANT_SOURCE_FIELDS;
  const entries: FieldEntry[] = [];
  let options: OptionEntry[] = [];
  for (const [field, spec] of Object.entries(section)) {
    const path = [level, field];
    if (level === 'variant' && field === 'options') {
      options = readOptions(reader, spec, path);
      continue;
    }
    if (field.startsWith(METAFIELD_PREFIX)) {
      if (!metafieldSourceOk(reader, field, path)) continue;
    } else if (!(field in fields)) {
      const known = [
        ...Object.keys(fields),
        'metafields.<namespace>.<key>',
        ...(level === 'variant' ? ['options'] : []),
      ];
      reader.problems.add(
        path,
        `unknown key "${field}": not a ${level} field of the canonical read (known: ${known.join(', ')})`,
      );
      continue;
    }
    const specs = Array.isArray(spec) ? spec : [spec];
    if (specs.length === 0) reader.problems.add(path, 'must name at least one attribute');
    specs.forEach((one, index) => {
      const entryPath = Array.isArray(spec) ? [...path, index] : path;
      const entry = readFieldEntry(reader, one, entryPath, level, field);
      if (entry) entries.push(entry);
    });
  }
  return { entries, options };
}

/**
 * A `metafields.<namespace>.<key>` source: namespace 3-255 and key 2-64 letters, digits, `-`
 * or `_` (Shopify's rules, `METAFIELD_NAME_RULES`), or the connector's `$app` / `$app:<name>`.
 */
function metafieldSourceOk(reader: RawReader, field: string, path: Path): boolean {
  const source = metafieldSource(field);
  if (!source) {
    reader.problems.add(
      path,
      `"${field}" must be metafields.<namespace>.<key> (namespace and key without dots)`,
    );
    return false;
  }
  const rules = METAFIELD_NAME_RULES;
  const problems: string[] = [];
  const app = /^\$app(?::([A-Za-z0-9_-]+))?$/.test(source.namespace);
  const namespaceOk =
    app ||
    (source.namespace.length >= rules.namespace.min &&
      source.namespace.length <= rules.namespace.max &&
      rules.characters.test(source.namespace));
  if (!namespaceOk)
    problems.push(
      `namespace "${source.namespace}" must be ${rules.namespace.min}-${rules.namespace.max} letters, digits, "-" or "_" (or "$app", "$app:<name>")`,
    );
  if (
    source.key.length < rules.key.min ||
    source.key.length > rules.key.max ||
    !rules.characters.test(source.key)
  )
    problems.push(
      `key "${source.key}" must be ${rules.key.min}-${rules.key.max} letters, digits, "-" or "_"`,
    );
  for (const problem of problems) reader.problems.add(path, problem);
  return problems.length === 0;
}

function readFieldEntry(
  reader: RawReader,
  spec: unknown,
  path: Path,
  level: 'product' | 'variant',
  field: string,
): FieldEntry | undefined {
  const base = { path: pathText(path), level, field } as Pick<FieldEntry, 'path' | 'level' | 'field'>;
  const defaults = { currency: null, default: null, parent: 'none' as const };
  if (typeof spec === 'string') return { ...base, ...defaults, ...plainValueSettings(reader, spec, path) };
  const map = reader.map(spec, path);
  if (!map) return undefined;
  reader.keys(map, level === 'variant' ? VARIANT_FIELD_KEYS : FIELD_KEYS, path);
  const settings = readValueSettings(reader, map, path);
  const currency = reader.optionalString(map, 'currency', path);
  if (typeof currency === 'string' && currency !== 'shop' && !CURRENCY.test(currency)) {
    reader.problems.add(
      [...path, 'currency'],
      `must be "shop" or an ISO currency code like "EUR", got "${currency}"`,
    );
  }
  const fallback = map.default;
  if (fallback !== undefined && fallback !== null && typeof fallback !== 'string') {
    reader.problems.add(
      [...path, 'default'],
      `must be a string, got ${describe(fallback)} (quote it: "...")`,
    );
  }
  if (!settings) return undefined;
  return {
    ...base,
    ...settings,
    currency: currency ?? null,
    default: typeof fallback === 'string' ? fallback : null,
    parent: reader.oneOf(map, 'parent', path, ['none', 'firstVariant'], 'none'),
  };
}

function readOptions(reader: RawReader, spec: unknown, path: Path): OptionEntry[] {
  const map = reader.map(spec, path);
  if (!map) return [];
  const options: OptionEntry[] = [];
  for (const [name, one] of Object.entries(map)) {
    const entryPath = [...path, name];
    if (typeof one === 'string') {
      options.push({
        path: pathText(entryPath),
        name,
        aliases: [],
        ...plainValueSettings(reader, one, entryPath),
      });
      continue;
    }
    const entry = reader.map(one, entryPath);
    if (!entry) continue;
    reader.keys(entry, OPTION_KEYS, entryPath);
    const settings = readValueSettings(reader, entry, entryPath);
    const aliases = reader.stringList(entry.aliases, [...entryPath, 'aliases']);
    if (settings) options.push({ path: pathText(entryPath), name, aliases, ...settings });
  }
  return options;
}

function plainValueSettings(reader: RawReader, attribute: string, path: Path): ValueSettings {
  reader.string(attribute, path);
  return { attribute, values: null, caseSensitive: false, unknownValues: 'gap' };
}

function readValueSettings(reader: RawReader, map: RawMap, path: Path): ValueSettings | undefined {
  const attribute =
    map.attribute === undefined ? undefined : reader.string(map.attribute, [...path, 'attribute']);
  if (map.attribute === undefined) reader.problems.add(path, 'needs "attribute": the catalog attribute key');
  const caseSensitive = reader.boolean(map, 'caseSensitive', path, false);
  const values =
    map.values === undefined ? null : readValueMap(reader, map.values, [...path, 'values'], caseSensitive);
  const unknownValues = reader.oneOf(map, 'unknownValues', path, ['gap', 'drop'], 'gap');
  return attribute === undefined ? undefined : { attribute, values, caseSensitive, unknownValues };
}

/** `Shopify value: catalog value` pairs; a null target means "no value, no gap". */
function readValueMap(
  reader: RawReader,
  value: unknown,
  path: Path,
  caseSensitive: boolean,
): ValueMap | null {
  if (!isMap(value)) {
    reader.problems.add(
      path,
      `must be a mapping of Shopify values to catalog values, got ${describe(value)}`,
    );
    return null;
  }
  const pairs: Array<readonly [string, string | null]> = [];
  const seen = new Map<string, string>();
  for (const [from, to] of Object.entries(value)) {
    const key = caseSensitive ? from.trim() : from.trim().toLowerCase();
    const earlier = seen.get(key);
    if (earlier !== undefined) {
      reader.problems.add(
        [...path, from],
        `maps the same value as "${earlier}" (matching ignores case and spaces around)`,
      );
      continue;
    }
    seen.set(key, from);
    if (to !== null && typeof to !== 'string') {
      reader.problems.add(
        [...path, from],
        `must map to a string or null, got ${describe(to)} (quote it: "...")`,
      );
      continue;
    }
    pairs.push([from, to]);
  }
  return pairs;
}
