import { CatalogApiError } from '../src/http/catalog-api.error.js';

/** The CatalogApiError `run` throws; fails the test when it throws something else or nothing. */
export function errorOf(run: () => unknown): CatalogApiError {
  try {
    run();
  } catch (error) {
    if (error instanceof CatalogApiError) return error;
    throw error;
  }
  throw new Error('expected a CatalogApiError, but the call succeeded');
}
