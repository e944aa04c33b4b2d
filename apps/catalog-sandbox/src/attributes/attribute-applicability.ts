import type { CategoryScope } from '#lib/catalog-contract';
import type { Taxonomy } from '../taxonomy/taxonomy.js';
import type { AttributeDef } from './attribute-definition.js';

/**
 * How an attribute applies to a product in category `categoryId` (spec: Attribute
 * applicability): GLOBAL (no category link), DIRECT (linked to the product's own category),
 * INHERITED (linked to one of its ancestors), or null when it does not apply.
 */
export function categoryScope(
  def: AttributeDef,
  categoryId: string | null,
  taxonomy: Taxonomy,
): CategoryScope | null {
  if (def.categories === null) return 'GLOBAL';
  if (categoryId === null) return null;
  if (def.categories.includes(categoryId)) return 'DIRECT';
  return taxonomy.ancestors(categoryId).some((a) => def.categories?.includes(a)) ? 'INHERITED' : null;
}

/**
 * Whether an attribute is enrichable on a record: applicable, class CUSTOM or LIB, AI toggle on,
 * not disabled (the sandbox's choice), and for variants also variant-specific.
 */
export function isEnrichable(
  def: AttributeDef,
  categoryId: string | null,
  isVariant: boolean,
  taxonomy: Taxonomy,
): boolean {
  if (def.class !== 'CUSTOM' && def.class !== 'LIB') return false;
  if (!def.aiEnabled || def.disabled) return false;
  if (isVariant && !def.variantable) return false;
  return categoryScope(def, categoryId, taxonomy) !== null;
}
