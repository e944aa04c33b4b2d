import type { Account } from '../accounts/account.js';
import type { AttributeDef } from '../attributes/attribute-definition.js';
import type { ProductView } from '../products/product-view.js';
import type { StoredProduct } from '../products/stored-product.js';
import { type FieldValue, matchesAll } from './condition-matcher.js';
import type { Condition } from './filter-condition.js';
import type { ProductFilterQuery } from './product-filter.parser.js';

export type ProductPredicate = (product: StoredProduct) => boolean;

/**
 * Compiles a parsed filter into a predicate over stored records, for one account. Attribute
 * values are the record's effective ones (a variant's inherited values count), as GET shows them.
 */
export function compileProductMatcher(
  query: ProductFilterQuery,
  account: Account,
  view: ProductView,
): ProductPredicate {
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
  const defs = account.attributes.all();
  for (const criterion of query.attributes) {
    const targeted = defs.filter((def) => matchesAll(criterion.key, def.key));
    tests.push((p) => targeted.some((def) => matchesAll(criterion.value, effectiveValue(view, p, def))));
  }
  const { keyword } = query;
  if (keyword !== null)
    tests.push((p) => defs.some((def) => containsKeyword(effectiveValue(view, p, def), keyword)));
  // Last: the summary is the costliest part, computed only for records that passed the rest.
  field(query.completionRate, (p) => view.summary(p).enrichableCompletionRate);
  return (product) => tests.every((test) => test(product));
}

/** The record's effective value of an attribute; undefined when it holds none (or an empty array). */
function effectiveValue(view: ProductView, product: StoredProduct, def: AttributeDef): FieldValue {
  const value = view.effective(product, def)?.value;
  if (value === null || value === undefined) return undefined;
  if (Array.isArray(value) && value.length === 0) return undefined;
  return value;
}

/** Case-insensitive substring test on a string value or any item of an array value. */
function containsKeyword(value: FieldValue, keyword: string): boolean {
  if (value === undefined || typeof value === 'number') return false;
  if (typeof value === 'string') return value.toLowerCase().includes(keyword);
  return value.some((item) => item.toLowerCase().includes(keyword));
}
