import type { MetafieldDefinitionSettings, WriteBackEntry, WriteBackTarget } from '../model/mapping-file.js';
import { pathText } from '../model/mapping-problem.js';
import { metafieldTargetProblems } from '../write-back/write-back-targets.js';
import type { Path, RawMap, RawReader } from './raw-reader.js';

/** Shopify product fields a write-back entry may target by name (issue 15's list). */
export const WRITE_BACK_FIELDS = ['title', 'descriptionHtml', 'seo.title', 'seo.description'] as const;
const NAMED_TARGETS = [...WRITE_BACK_FIELDS, 'tags'] as const;
const ENTRY_KEYS = ['target', 'metafield', 'merchantEdits'] as const;
const METAFIELD_SPEC_KEYS = ['namespace', 'key', 'type', 'name', 'description', 'storefront'] as const;
const STOREFRONT = ['none', 'public_read'] as const;
const MERCHANT_EDITS = ['keep', 'overwrite'] as const;

/**
 * Reads `writeBack`: per level, catalog attribute -> Shopify target. A target is a field name
 * (`seo.title`), `tags` (added with tagsAdd, never replacing the merchant's), or
 * `{metafield: {namespace, key, type}}`; the object form `{target: seo.title}` /
 * `{metafield: ...}` also takes `merchantEdits: keep | overwrite` (who wins after a merchant
 * edits the target; default keep). Variants take metafields only. Metafield namespaces, keys and
 * types are checked against Shopify's rules here, without the catalog.
 */
export function readWriteBack(reader: RawReader, section: RawMap): WriteBackEntry[] {
  reader.keys(section, ['product', 'variant'], ['writeBack']);
  const entries: WriteBackEntry[] = [];
  for (const level of ['product', 'variant'] as const) {
    if (section[level] === undefined) continue;
    const map = reader.map(section[level], ['writeBack', level]);
    if (!map) continue;
    for (const [attribute, spec] of Object.entries(map)) {
      const path = ['writeBack', level, attribute];
      const read = readEntry(reader, spec, path, level);
      if (read) {
        const metafieldDefinition =
          read.target.kind === 'metafield' ? readDefinition(reader, spec, path, attribute) : null;
        entries.push({ path: pathText(path), level, attribute, ...read, metafieldDefinition });
      }
    }
  }
  return entries;
}

function readEntry(
  reader: RawReader,
  spec: unknown,
  path: Path,
  level: 'product' | 'variant',
): Pick<WriteBackEntry, 'target' | 'merchantEdits'> | undefined {
  if (typeof spec === 'string') {
    const target = namedTarget(reader, spec, path, level);
    return target && { target, merchantEdits: 'keep' };
  }
  const map = reader.map(spec, path);
  if (!map) return undefined;
  reader.keys(map, ENTRY_KEYS, path);
  const merchantEdits = reader.oneOf(map, 'merchantEdits', path, MERCHANT_EDITS, 'keep');
  if ((map.target === undefined) === (map.metafield === undefined)) {
    reader.problems.add(
      path,
      'needs one target: a field name, "tags", {target: <field name>} or {metafield: {namespace, key, type}}',
    );
    return undefined;
  }
  if (map.target !== undefined) {
    const name = reader.string(map.target, [...path, 'target']);
    const target = name === undefined ? undefined : namedTarget(reader, name, [...path, 'target'], level);
    return target && { target, merchantEdits };
  }
  const target = readMetafield(reader, map.metafield, [...path, 'metafield']);
  return target && { target, merchantEdits };
}

function namedTarget(
  reader: RawReader,
  spec: string,
  path: Path,
  level: 'product' | 'variant',
): WriteBackTarget | undefined {
  if (level === 'variant') {
    reader.problems.add(
      path,
      `variants take metafield targets only ({metafield: {namespace, key, type}}), got "${spec}"`,
    );
    return undefined;
  }
  if (spec === 'tags') return { kind: 'tags' };
  const field = WRITE_BACK_FIELDS.find((f) => f === spec);
  if (field) return { kind: 'field', field };
  reader.problems.add(
    path,
    `unknown target "${spec}" (targets: ${NAMED_TARGETS.join(', ')}, or {metafield: ...})`,
  );
  return undefined;
}

function readMetafield(reader: RawReader, raw: unknown, at: Path): WriteBackTarget | undefined {
  const metafield = reader.map(raw, at);
  if (!metafield) return undefined;
  reader.keys(metafield, METAFIELD_SPEC_KEYS, at);
  const namespace = reader.string(metafield.namespace, [...at, 'namespace']);
  const key = reader.string(metafield.key, [...at, 'key']);
  const type = reader.string(metafield.type, [...at, 'type']);
  if (namespace === undefined || key === undefined || type === undefined) return undefined;
  const problems = metafieldTargetProblems({ namespace, key, type });
  for (const problem of problems) reader.problems.add([...at, problem.at], problem.message);
  return problems.length > 0 ? undefined : { kind: 'metafield', namespace, key, type };
}

/** A metafield target's definition settings: `name`, `description`, `storefront` beside its type. */
function readDefinition(
  reader: RawReader,
  spec: unknown,
  path: Path,
  attribute: string,
): MetafieldDefinitionSettings {
  const at = [...path, 'metafield'];
  const raw = (spec as RawMap).metafield as RawMap;
  const name = reader.optionalString(raw, 'name', at);
  const description = reader.optionalString(raw, 'description', at);
  const storefront = reader.oneOf(raw, 'storefront', at, STOREFRONT, 'none');
  return {
    name: name ?? attribute,
    description: description ?? null,
    storefront: storefront === 'public_read' ? 'PUBLIC_READ' : 'NONE',
  };
}
