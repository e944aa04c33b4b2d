import type { WriteBackEntry, WriteBackTarget } from '../mapping-file.js';
import { pathText } from '../mapping-problem.js';
import type { Path, RawMap, RawReader } from './raw-reader.js';

/** Shopify product fields a write-back entry may target by name (issue 15's list). */
export const WRITE_BACK_FIELDS = ['title', 'descriptionHtml', 'seo.title', 'seo.description'] as const;
const NAMED_TARGETS = [...WRITE_BACK_FIELDS, 'tags'] as const;
const METAFIELD_KEYS = ['metafield'] as const;
const METAFIELD_SPEC_KEYS = ['namespace', 'key', 'type'] as const;

/**
 * Reads `writeBack`: per level, catalog attribute -> Shopify target. A target is a field name
 * (`seo.title`), `tags` (added with tagsAdd, never replacing the merchant's), or
 * `{metafield: {namespace, key, type}}`. Variants take metafields only. Issue 15 adds keys (how
 * values convert, who wins after a merchant edit) to the object form: the format only grows.
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
      const target = readTarget(reader, spec, path, level);
      if (target) entries.push({ path: pathText(path), level, attribute, target });
    }
  }
  return entries;
}

function readTarget(
  reader: RawReader,
  spec: unknown,
  path: Path,
  level: 'product' | 'variant',
): WriteBackTarget | undefined {
  if (typeof spec === 'string') {
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
  const map = reader.map(spec, path);
  if (!map) return undefined;
  reader.keys(map, METAFIELD_KEYS, path);
  if (map.metafield === undefined) {
    reader.problems.add(path, 'needs a target: a field name, "tags", or {metafield: {namespace, key, type}}');
    return undefined;
  }
  const metafield = reader.map(map.metafield, [...path, 'metafield']);
  if (!metafield) return undefined;
  const at = [...path, 'metafield'];
  reader.keys(metafield, METAFIELD_SPEC_KEYS, at);
  const namespace = reader.string(metafield.namespace, [...at, 'namespace']);
  const key = reader.string(metafield.key, [...at, 'key']);
  const type = reader.string(metafield.type, [...at, 'type']);
  if (namespace === undefined || key === undefined || type === undefined) return undefined;
  return { kind: 'metafield', namespace, key, type };
}
