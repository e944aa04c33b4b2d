import type { CatalogSuccess } from '#lib/catalog-contract';

/** Wraps a result in the success envelope `{errorCode: 0, data}`. */
export function ok<T>(data: T): CatalogSuccess<T> {
  return { errorCode: 0, data };
}
