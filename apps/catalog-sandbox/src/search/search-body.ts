import { CatalogApiError } from '../http/catalog-api.error.js';
import { isPlainObject } from './json-shape.js';

export interface SearchBody {
  filter: unknown;
  pagination: unknown;
  sort: unknown;
}

/** Splits a search body into `filter`, `pagination` and `sort` (all optional, nothing else). */
export function readSearchBody(raw: unknown): SearchBody {
  if (raw === undefined || raw === null) return { filter: undefined, pagination: undefined, sort: undefined };
  if (!isPlainObject(raw))
    throw CatalogApiError.queryStructure('body', 'an object {filter, pagination, sort}', raw);
  for (const [name, value] of Object.entries(raw)) {
    if (name !== 'filter' && name !== 'pagination' && name !== 'sort') {
      throw CatalogApiError.queryStructure(name, 'filter, pagination or sort', value);
    }
  }
  return { filter: raw.filter, pagination: raw.pagination, sort: raw.sort };
}
