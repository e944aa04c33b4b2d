import type { ProductScope, ScopeCollection, ScopeStatus } from '../model/mapping-file.js';
import type { RawMap, RawReader } from './raw-reader.js';

const SCOPE_KEYS = [
  'tags',
  'vendors',
  'productTypes',
  'collections',
  'categories',
  'statuses',
  'metafield',
] as const;
const STATUSES: readonly ScopeStatus[] = ['ACTIVE', 'UNLISTED', 'DRAFT', 'ARCHIVED'];
const COLLECTION_GID = /^gid:\/\/shopify\/Collection\/\d+$/;
const CATEGORY_GID = /^gid:\/\/shopify\/TaxonomyCategory\/[a-z]{2}(-\d+)*$/;
const METAFIELD_PART = /^[A-Za-z0-9_-]{2,64}$/;

/**
 * Reads `scope`: which products sync. Lists of strings (`tags`, `vendors`, `productTypes`,
 * `collections` by handle or id, `categories` as TaxonomyCategory gids, `statuses`), and
 * `metafield: {namespace, key, value}`. A scope that asks nothing is refused: leave it out.
 */
export function readScope(reader: RawReader, raw: unknown): ProductScope | null {
  const map = reader.map(raw, ['scope']);
  if (!map) return null;
  reader.keys(map, SCOPE_KEYS, ['scope']);
  const list = (key: (typeof SCOPE_KEYS)[number]) => reader.stringList(map[key], ['scope', key]);
  const scope: ProductScope = {
    tags: list('tags').map((t) => t.trim()),
    vendors: list('vendors').map((v) => v.trim()),
    productTypes: list('productTypes').map((t) => t.trim()),
    collections: readCollections(reader, map.collections).map(collectionOf),
    categories: readCategories(reader, list('categories')),
    statuses: readStatuses(reader, map),
    metafield: readMetafield(reader, map.metafield),
  };
  const asksSomething =
    scope.tags.length + scope.vendors.length + scope.productTypes.length + scope.collections.length > 0 ||
    scope.categories.length > 0 ||
    scope.statuses !== null ||
    scope.metafield !== null;
  if (!asksSomething) {
    reader.problems.add(
      ['scope'],
      'asks nothing: name tags, vendors, productTypes, collections, categories, statuses or a metafield, or leave scope out',
    );
  }
  return scope;
}

/** Collections are strings, or ids written as plain numbers (quoted when beyond 2^53). */
function readCollections(reader: RawReader, raw: unknown): string[] {
  if (!Array.isArray(raw)) return reader.stringList(raw, ['scope', 'collections']);
  return raw.flatMap((item, i) => {
    if (typeof item === 'number' && Number.isSafeInteger(item) && item > 0) return [String(item)];
    if (typeof item === 'number') {
      reader.problems.add(
        ['scope', 'collections', i],
        `must be a collection id or handle; quote a long id ("..."), got ${item}`,
      );
      return [];
    }
    const text = reader.string(item, ['scope', 'collections', i]);
    return text === undefined ? [] : [text];
  });
}

/** Digits and collection gids are ids; anything else is a handle. */
function collectionOf(entry: string): ScopeCollection {
  const text = entry.trim();
  if (/^\d+$/.test(text)) return { kind: 'id', id: `gid://shopify/Collection/${text}` };
  if (COLLECTION_GID.test(text)) return { kind: 'id', id: text };
  return { kind: 'handle', handle: text.toLowerCase() };
}

function readCategories(reader: RawReader, categories: string[]): string[] {
  categories.forEach((category, i) => {
    if (!CATEGORY_GID.test(category.trim())) {
      reader.problems.add(
        ['scope', 'categories', i],
        `must be a Shopify product category id (gid://shopify/TaxonomyCategory/aa-1-13), got "${category}"`,
      );
    }
  });
  return categories.map((c) => c.trim());
}

function readStatuses(reader: RawReader, map: RawMap): ScopeStatus[] | null {
  if (map.statuses === undefined || map.statuses === null) return null;
  const statuses = reader.stringList(map.statuses, ['scope', 'statuses']).map((s) => s.trim().toUpperCase());
  const unknown = statuses.filter((s) => !(STATUSES as readonly string[]).includes(s));
  if (unknown.length > 0 || statuses.length === 0) {
    reader.problems.add(
      ['scope', 'statuses'],
      `must list some of ${STATUSES.join(', ')}, got ${JSON.stringify(map.statuses)}`,
    );
    return null;
  }
  return statuses as ScopeStatus[];
}

function readMetafield(reader: RawReader, raw: unknown): ProductScope['metafield'] {
  if (raw === undefined || raw === null) return null;
  const at = ['scope', 'metafield'];
  const map = reader.map(raw, at);
  if (!map) return null;
  reader.keys(map, ['namespace', 'key', 'value'], at);
  const namespace = reader.string(map.namespace, [...at, 'namespace']);
  const key = reader.string(map.key, [...at, 'key']);
  const value =
    typeof map.value === 'boolean' || typeof map.value === 'number'
      ? String(map.value)
      : reader.string(map.value, [...at, 'value']);
  if (namespace === undefined || key === undefined || value === undefined) return null;
  for (const [name, part] of [
    ['namespace', namespace],
    ['key', key],
  ] as const) {
    if (!METAFIELD_PART.test(part) && !(name === 'namespace' && /^\$app(:[A-Za-z0-9_-]+)?$/.test(part))) {
      reader.problems.add([...at, name], `must be 2-64 letters, digits, "-" or "_", got "${part}"`);
    }
  }
  return { namespace, key, value };
}
