import { noRedaction, type Redact, redactDeep } from './redaction.js';

/**
 * The one error class the catalog client throws. It carries what the catalog answered (the
 * envelope's `errorCode` and `error.code`, `details`, `suggestion`) or what went wrong on the way
 * (time-out, dropped connection, open circuit), plus the request's method and path.
 *
 * It never holds the request's headers, body, query string or the transport's own error object:
 * those can carry the API key. Built with `redact` (as every error the client throws is), every
 * text field (message, so the stack too, code, method, path, suggestion, details) is scrubbed
 * before it is stored: `String(error)`, `error.stack`, `JSON.stringify(error)` and
 * `util.inspect(error)` are safe to log.
 */

/** `code` values the client itself produces (the catalog's own are in `CatalogErrorCode`). */
export const ClientErrorCode = {
  /** No answer within the configured time-out. */
  TIMEOUT: 'timeout',
  /** The connection failed or was dropped before an answer. */
  NETWORK_ERROR: 'network_error',
  /** The circuit breaker is open: the call was not sent. */
  CIRCUIT_OPEN: 'circuit_open',
  /** The answer was not the catalog's JSON envelope. */
  INVALID_RESPONSE: 'invalid_response',
  /** The rate limiter's store (Redis, PostgreSQL) failed: the call was not sent. */
  LIMITER_UNAVAILABLE: 'limiter_unavailable',
  /**
   * A create failed ambiguously (it may have been committed) and the client could not settle it:
   * the look-up by `supplierSku` failed or was not asked for, or every POST failed ambiguously.
   * `details.supplierSku` names the record to reconcile.
   */
  CREATE_OUTCOME_UNKNOWN: 'create_outcome_unknown',
  /**
   * A PATCH or DELETE failed after an attempt that may have been applied (time-out, dropped
   * connection, 5xx): re-read the record before deciding to repeat it.
   */
  WRITE_OUTCOME_UNKNOWN: 'write_outcome_unknown',
  /** The object store refused the upload. */
  UPLOAD_FAILED: 'upload_failed',
  /** Upload processing did not finish within the configured time. */
  UPLOAD_PROCESSING_TIMEOUT: 'upload_processing_timeout',
  /** The client was closed. */
  CLIENT_CLOSED: 'client_closed',
} as const;
export type ClientErrorCode = (typeof ClientErrorCode)[keyof typeof ClientErrorCode];

export interface CatalogClientErrorInit {
  message: string;
  /** The envelope's `errorCode` (the HTTP status in the catalog's answers); null without an answer. */
  errorCode: number | null;
  /** The envelope's `error.code`, or one of `ClientErrorCode`. */
  code: string;
  /** HTTP status; null without an answer. */
  status: number | null;
  details?: Record<string, unknown>;
  suggestion?: string;
  /** Whether repeating the same call later, unchanged, may succeed. */
  retryable: boolean;
  method: string;
  /** Path only: never the query string. */
  path: string;
  /** For 429: how long the catalog asked to wait. */
  retryAfterMs?: number;
  /** HTTP attempts made for this call (1 when it was not retried). */
  attempts?: number;
  /** Applied to every text field before it is stored (the client passes its API key's redactor). */
  redact?: Redact;
}

export class CatalogClientError extends Error {
  readonly errorCode: number | null;
  readonly code: string;
  readonly status: number | null;
  readonly details: Record<string, unknown> | undefined;
  readonly suggestion: string | undefined;
  readonly retryable: boolean;
  readonly method: string;
  readonly path: string;
  readonly retryAfterMs: number | undefined;
  attempts: number;

  constructor(init: CatalogClientErrorInit) {
    const redact = init.redact ?? noRedaction;
    // Scrubbed before `super`, so the stack (built from the message) never holds the secret.
    super(redact(init.message));
    this.name = 'CatalogClientError';
    this.errorCode = init.errorCode;
    this.code = redact(init.code);
    this.status = init.status;
    this.details =
      init.details === undefined ? undefined : (redactDeep(init.details, redact) as Record<string, unknown>);
    this.suggestion = init.suggestion === undefined ? undefined : redact(init.suggestion);
    this.retryable = init.retryable;
    this.method = redact(init.method);
    this.path = redact(stripQuery(init.path));
    this.retryAfterMs = init.retryAfterMs;
    this.attempts = init.attempts ?? 1;
  }

  toJSON(): Record<string, unknown> {
    return {
      name: this.name,
      message: this.message,
      errorCode: this.errorCode,
      code: this.code,
      status: this.status,
      details: this.details,
      suggestion: this.suggestion,
      retryable: this.retryable,
      method: this.method,
      path: this.path,
      retryAfterMs: this.retryAfterMs,
      attempts: this.attempts,
    };
  }
}

export function isCatalogClientError(value: unknown): value is CatalogClientError {
  return value instanceof CatalogClientError;
}

function stripQuery(path: string): string {
  const cut = path.search(/[?#]/);
  return cut === -1 ? path : path.slice(0, cut);
}
