/**
 * The one error class the catalog client throws. It carries what the catalog answered (the
 * envelope's `errorCode` and `error.code`, `details`, `suggestion`) or what went wrong on the way
 * (time-out, dropped connection, open circuit), plus the request's method and path.
 *
 * It never holds the request's headers, body, query string or the transport's own error object:
 * those can carry the API key. `String(error)`, `error.stack` and `JSON.stringify(error)` are safe
 * to log.
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
  /** A create failed ambiguously and the look-up by `supplierSku` failed too. */
  CREATE_OUTCOME_UNKNOWN: 'create_outcome_unknown',
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
    super(init.message);
    this.name = 'CatalogClientError';
    this.errorCode = init.errorCode;
    this.code = init.code;
    this.status = init.status;
    this.details = init.details;
    this.suggestion = init.suggestion;
    this.retryable = init.retryable;
    this.method = init.method;
    this.path = stripQuery(init.path);
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
