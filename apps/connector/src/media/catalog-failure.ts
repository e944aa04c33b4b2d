import { isCatalogClientError } from '#lib/catalog-client';
import { MediaError, MediaErrorCode } from './media-error.js';

/**
 * A catalog client failure of a media call (the gallery's read or PATCH, an upload) as a
 * `MediaError`: the client's own verdict decides retryable (`catalog_unavailable`: 5xx, time-outs,
 * 429, breaker open, outcome unknown) or not (`catalog_rejected`). Anything that is not a client
 * error is a bug and is returned unchanged, to be rethrown.
 */
export function catalogFailure(error: unknown, what: string): unknown {
  if (!isCatalogClientError(error)) return error;
  return new MediaError({
    code: error.retryable ? MediaErrorCode.CATALOG_UNAVAILABLE : MediaErrorCode.CATALOG_REJECTED,
    message: `${what}: ${error.code}${error.status ? ` (HTTP ${error.status})` : ''} at ${error.method} ${error.path}`,
    retryable: error.retryable,
    details: { catalogCode: error.code, status: error.status },
    cause: error,
  });
}
