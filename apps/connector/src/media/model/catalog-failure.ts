import { ClientErrorCode, isCatalogClientError } from '#lib/catalog-client';
import { MediaError, MediaErrorCode } from './media-error.js';

const LATER = new Set<string>([ClientErrorCode.CIRCUIT_OPEN, ClientErrorCode.CLIENT_CLOSED]);

/**
 * A catalog client failure of a media call (the gallery's read or PATCH, an upload) as a
 * `MediaError`: the client's own verdict decides retryable (`catalog_unavailable`: 5xx, time-outs,
 * 429, outcome unknown; also an open breaker or a closed client) or not (`catalog_rejected`). Anything that is not a client
 * error is a bug and is returned unchanged, to be rethrown.
 */
export function catalogFailure(error: unknown, what: string): unknown {
  if (!isCatalogClientError(error)) return error;
  // An open breaker or a closing client is not retried by the client itself, but the job's work is
  // still to do once the catalog is back: retry later, never a permanent failure.
  const retryable = error.retryable || LATER.has(error.code);
  return new MediaError({
    code: retryable ? MediaErrorCode.CATALOG_UNAVAILABLE : MediaErrorCode.CATALOG_REJECTED,
    message: `${what}: ${error.code}${error.status ? ` (HTTP ${error.status})` : ''} at ${error.method} ${error.path}`,
    retryable,
    details: { catalogCode: error.code, status: error.status },
    cause: error,
  });
}
