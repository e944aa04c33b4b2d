import type { AttributeDef } from '../attributes/attribute-definition.js';
import type { ProductView } from '../products/product-view.js';
import type { StoredProduct } from '../products/stored-product.js';
import { type FieldValue, matchesAll } from './condition-matcher.js';
import type { Condition } from './filter-condition.js';
import type { ProductFilterQuery } from './product-filter.parser.js';

export type ProductPredicate = (product: StoredProduct) => boolean;

/**
 * Compiles a parsed filter into a predicate over stored records, for the view's account. Attribute
 * values are the record's effective ones (a variant's inherited values count), as GET shows them,
 * read from the stored values without building entries (the page's views are built afterwards).
 */
export function compileProductMatcher(query: ProductFilterQuery, view: ProductView): ProductPredicate {
  const tests: ProductPredicate[] = [];
  const field = (conditions: Condition[], read: (p: StoredProduct) => FieldValue) => {
    if (conditions.length > 0) tests.push((p) => matchesAll(conditions, read(p)));
  };
  field(query.skuId, (p) => p.skuId);
  field(query.supplierSku, (p) => p.supplierSku);
  field(query.createdAt, (p) => p.createdAt);
  field(query.updatedAt, (p) => p.updatedAt);
  field(query.enrichmentStatus, (p) => p.dataEnrichment?.status);
  field(query.enrichmentCompletedAt, (p) => p.dataEnrichment?.completedAt);
  const defs = view.defs();
  // The parent of the record under test, resolved once per record for the attribute tests.
  let current: StoredProduct | undefined;
  let parent: StoredProduct | undefined;
  const attributeValue = (p: StoredProduct, def: AttributeDef): FieldValue => {
    if (p !== current) {
      current = p;
      parent = view.parentOf(p);
    }
    const value = view.effectiveValue(p, def, parent);
    return value === undefined || (typeof value !== 'string' && value.length === 0) ? undefined : value;
  };
  for (const criterion of query.attributes) {
    const targeted = defs.filter((def) => matchesAll(criterion.key, def.key));
    tests.push((p) => targeted.some((def) => matchesAll(criterion.value, attributeValue(p, def))));
  }
  const { keyword } = query;
  if (keyword !== null)
    tests.push((p) => defs.some((def) => containsKeyword(attributeValue(p, def), keyword)));
  // Last: the summary is the costliest part, computed only for records that passed the rest.
  field(query.completionRate, (p) => view.summary(p).enrichableCompletionRate);
  return (product) => {
    for (const test of tests) if (!test(product)) return false;
    return true;
  };
}

/** Case-insensitive substring test on a string value or any item of an array value. */
function containsKeyword(value: FieldValue, keyword: string): boolean {
  if (value === undefined || typeof value === 'number') return false;
  if (typeof value === 'string') return value.toLowerCase().includes(keyword);
  return value.some((item) => item.toLowerCase().includes(keyword));
}
