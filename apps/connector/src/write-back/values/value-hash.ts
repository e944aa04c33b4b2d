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
