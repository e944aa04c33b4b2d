import type { AttributeInput, AttributeValue } from '#lib/catalog-contract';
import type { AttributeSnapshot } from './sync-plan.js';
import type { TargetRecord } from './target-records.js';

export interface AttributeDiff {
  /** Attributes to send: on a create every value; on an edit only what changed (null clears). */
  changes: AttributeInput[];
  /** What the record holds once the changes are applied. */
  snapshot: AttributeSnapshot;
}

/**
 * Compares a target record with what was last applied to it. Only attributes in the record's
 * scope (those the mapping owns for this kind of record) are compared: one the target no longer
 * holds is cleared with null, one left out by a gap keeps whatever it had, and one the mapping
 * no longer owns is left alone in the catalog and dropped from the snapshot. Arrays compare whole
 * and in order (the catalog replaces them whole). `keep` names attributes that must not be
 * cleared (the catalog refuses clearing name and brand).
 */
export function diffAttributes(
  target: TargetRecord,
  applied: AttributeSnapshot | null,
  keep: readonly string[] = [],
): AttributeDiff {
  const changes: AttributeInput[] = [];
  const snapshot: Record<string, string | string[]> = {};
  for (const key of target.scope) {
    const current = applied?.[key] ?? null;
    const wanted = target.values.get(key) ?? null;
    if (target.leftOut.has(key) || (wanted === null && keep.includes(key))) {
      if (current !== null) snapshot[key] = current;
      continue;
    }
    if (wanted !== null) snapshot[key] = wanted;
    if (applied === null ? wanted !== null : !sameValue(current, wanted))
      changes.push({ key, value: wanted });
  }
  return { changes, snapshot };
}

/** Equal wire values: same string, or same strings in the same order. */
export function sameValue(a: AttributeValue, b: AttributeValue): boolean {
  if (Array.isArray(a) && Array.isArray(b)) return a.length === b.length && a.every((v, i) => v === b[i]);
  return a === b;
}
