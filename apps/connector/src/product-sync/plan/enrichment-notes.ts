import type { ValidatedMapping } from '../../mapping/validated-mapping.js';
import type { PlanNote } from './sync-plan.js';
import type { TargetRecord } from './target-records.js';

/** The spec: "brand and productModel are essential for enrichment processing". */
const ESSENTIAL = ['brand', 'productModel'] as const;

/**
 * What the product's status should say about enrichment: a product without a real brand or
 * productModel still syncs, but the catalog's enrichment of it will fail. Also says when a
 * required attribute kept its last value because Shopify's field became empty.
 */
export function enrichmentNotes(
  own: TargetRecord,
  mapping: ValidatedMapping,
  keptRequired: readonly string[],
): PlanNote[] {
  const notes: PlanNote[] = [];
  const entries = [...mapping.productEntries, ...mapping.variantEntries];
  for (const attribute of ESSENTIAL) {
    const entry = entries.find(
      (e) =>
        e.attribute === attribute &&
        (e.level === 'product' || own.kind === 'simple' || e.parent === 'firstVariant'),
    );
    const note = (why: string) =>
      notes.push({
        code: 'enrichment-will-fail',
        attribute,
        message: `${why}: the catalog's enrichment needs ${attribute} and will fail`,
      });
    if (!entry) note(`no mapping entry gives this ${own.kind} record a ${attribute}`);
    else if (own.leftOut.has(attribute)) note(`${attribute} was left out by a mapping gap (${entry.path})`);
    else if (own.defaulted.has(attribute)) {
      note(
        `${entry.level}.${entry.field} is empty in Shopify, so ${attribute} holds the mapping's default "${entry.default}"`,
      );
    } else if ((own.values.get(attribute) ?? null) === null) {
      note(
        `${entry.level}.${entry.field} is empty in Shopify${entry.level === 'variant' && own.kind === 'parent' ? ' (first variant)' : ''}, so ${attribute} is not set`,
      );
    }
  }
  for (const attribute of keptRequired) {
    notes.push({
      code: 'required-attribute-kept',
      attribute,
      message: `Shopify gives no ${attribute}; the catalog cannot clear it, so it keeps its last value`,
    });
  }
  return notes;
}
