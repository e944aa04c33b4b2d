import type { SortOrder } from '#lib/catalog-contract';
import { CatalogApiError } from '../http/catalog-api.error.js';
import { isPlainObject } from './json-shape.js';

export interface SortRequest<F extends string> {
  field: F;
  order: SortOrder;
}

/**
 * Reads `sort: {field, order}`: `field` one of `fields`, `order` ASC or DESC (ASC when
 * omitted). Returns undefined when `sort` is absent (the caller's default order applies).
 */
export function parseSort<F extends string>(raw: unknown, fields: readonly F[]): SortRequest<F> | undefined {
  if (raw === undefined || raw === null) return undefined;
  if (!isPlainObject(raw)) throw CatalogApiError.queryStructure('sort', 'an object {field, order}', raw);
  for (const [name, value] of Object.entries(raw)) {
    if (name !== 'field' && name !== 'order')
      throw CatalogApiError.queryStructure(`sort.${name}`, 'field or order', value);
  }
  const field = raw.field;
  if (typeof field !== 'string' || !(fields as readonly string[]).includes(field)) {
    throw CatalogApiError.queryStructure('sort.field', `one of ${fields.join(', ')}`, field);
  }
  const order = raw.order ?? 'ASC';
  if (order !== 'ASC' && order !== 'DESC')
    throw CatalogApiError.queryStructure('sort.order', 'ASC or DESC', order);
  return { field: field as F, order };
}
