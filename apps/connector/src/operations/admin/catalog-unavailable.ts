import { ClientErrorCode, isCatalogClientError } from '#lib/catalog-client';
import type { Clock } from '#lib/clock';
import { ConnectorError } from '../../platform/http/connector.error.js';
import { ConnectorErrorCode } from '../../platform/http/connector-error-code.js';

/**
 * Why: an admin route that reads the catalog (a drift report, a drift repair's re-check) while
 * the account's breaker is open has nothing wrong of its own: it answers 503
 * `catalog_unavailable` with the breaker's state (why it opened, when it retries) and a
 * `Retry-After`, never 500 "Internal error". Any other error is thrown on as it was.
 */
export function catalogUnavailable(clock: Clock): (error: unknown) => never {
  return (error: unknown) => {
    if (!isCatalogClientError(error) || error.code !== ClientErrorCode.CIRCUIT_OPEN) throw error;
    const reason = typeof error.details?.reason === 'string' ? error.details.reason : null;
    const retryAt = typeof error.details?.retryAt === 'number' ? error.details.retryAt : null;
    const seconds = retryAt === null ? 5 : Math.max(1, Math.ceil((retryAt - clock.now()) / 1000));
    throw new ConnectorError(
      ConnectorErrorCode.CATALOG_UNAVAILABLE,
      `The catalog's circuit breaker is open (${reason === 'auth' ? 'the API key was refused' : 'the catalog is failing'}): nothing was read or changed. Try again in ${seconds} s.`,
      {
        breaker: 'open',
        reason,
        retryAt: retryAt === null ? null : new Date(retryAt).toISOString(),
        retryAfterSeconds: seconds,
      },
      { 'Retry-After': String(seconds) },
    );
  };
}
