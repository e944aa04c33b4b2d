import type { BreakerSnapshot } from '../breaker/circuit-breaker.js';
import { CatalogClientError, ClientErrorCode } from '../errors/catalog-client.error.js';
import type { Redact } from '../errors/redaction.js';

/** The request as an error names it: method and path (never the query, headers or body). */
export interface ErrorContext {
  method: string;
  path: string;
  attempts: number;
  redact: Redact;
}

/** Why: one wording for "not sent, the breaker is open", whether refused before or after the wait. */
export function circuitOpenError(context: ErrorContext, snapshot: BreakerSnapshot): CatalogClientError {
  return new CatalogClientError({
    message: `Catalog ${context.method} ${context.path} not sent: circuit open (${snapshot.reason ?? 'probe in flight'})`,
    errorCode: null,
    code: ClientErrorCode.CIRCUIT_OPEN,
    status: null,
    details: { reason: snapshot.reason, retryAt: snapshot.retryAt },
    suggestion:
      snapshot.reason === 'auth'
        ? 'The API key was refused (401/403): check it in the portal, then call client.breaker.reset().'
        : 'The catalog is failing: pause work until client.breaker.state is closed again.',
    retryable: false,
    method: context.method,
    path: context.path,
    attempts: context.attempts,
    redact: context.redact,
  });
}

/** The limiter refused the call: closed client, or a failed store (Redis, PostgreSQL). */
export function limiterError(context: ErrorContext, closed: boolean, cause: unknown): CatalogClientError {
  return new CatalogClientError({
    message: closed
      ? `Catalog ${context.method} ${context.path} not sent: the client was closed`
      : `Catalog ${context.method} ${context.path} not sent: rate limiter unavailable (${cause instanceof Error ? cause.name : 'error'})`,
    errorCode: null,
    code: closed ? ClientErrorCode.CLIENT_CLOSED : ClientErrorCode.LIMITER_UNAVAILABLE,
    status: null,
    retryable: !closed,
    method: context.method,
    path: context.path,
    attempts: context.attempts,
    redact: context.redact,
  });
}

/**
 * A PATCH or DELETE ends in failure after an attempt that may have been applied (`ambiguous`: a
 * time-out, dropped connection or 5xx). Why: reporting only the last failure (say `timeout`) reads
 * as "nothing happened" while the write may be in the catalog. Keeps the last answer's status and
 * codes so the caller still sees what the catalog said.
 */
export function writeOutcomeUnknown(
  context: ErrorContext,
  last: CatalogClientError,
  ambiguous: CatalogClientError,
): CatalogClientError {
  const resent = context.attempts > 1 ? ` (${context.attempts} attempts)` : '';
  return new CatalogClientError({
    message: `Catalog ${context.method} ${context.path} failed${resent}, but an attempt may have been applied (${ambiguous.code}); last failure: ${last.code}`,
    errorCode: last.errorCode,
    code: ClientErrorCode.WRITE_OUTCOME_UNKNOWN,
    status: last.status,
    details: {
      ...(last.details ?? {}),
      lastFailure: last.code,
      ambiguousFailure: ambiguous.code,
    },
    suggestion:
      'Re-read the record (GET) before repeating the write: it may already hold these values, or newer ones from another writer.',
    retryable: true,
    method: context.method,
    path: context.path,
    retryAfterMs: last.retryAfterMs,
    attempts: context.attempts,
    redact: context.redact,
  });
}
