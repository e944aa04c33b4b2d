import { isAxiosError } from 'axios';
import { isCatalogFailure } from '#lib/catalog-contract';
import { CatalogClientError, ClientErrorCode } from '../errors/catalog-client.error.js';
import { noRedaction, type Redact } from '../errors/redaction.js';
import type { CallOutcome, RetryReason } from '../metrics/client-metrics.js';

/** What one HTTP attempt came to, once mapped. Never holds the transport's own error object. */
export type AttemptResult =
  | { ok: true; status: number; data: unknown }
  | {
      ok: false;
      error: CatalogClientError;
      outcome: CallOutcome;
      /** What the breaker makes of it. */
      verdict: 'healthy' | 'auth' | 'unavailable';
      /** Set when the failure is transient (the call may be repeated if it is safe to). */
      retryReason: RetryReason | null;
    };

export interface RequestIdentity {
  method: string;
  path: string;
}

export { type Redact, redactorFor } from '../errors/redaction.js';

/** Maps an HTTP answer (any status) to a result. */
export function fromResponse(
  id: RequestIdentity,
  status: number,
  body: unknown,
  headers: Record<string, unknown>,
  redact: Redact,
): AttemptResult {
  const envelope = typeof body === 'object' && body !== null ? (body as Record<string, unknown>) : undefined;
  if (status >= 200 && status < 300 && envelope?.errorCode === 0 && 'data' in envelope) {
    return { ok: true, status, data: envelope.data };
  }
  let code: string = ClientErrorCode.INVALID_RESPONSE;
  let errorCode: number | null = status;
  let text = `unexpected answer (HTTP ${status})`;
  let suggestion: string | undefined;
  let details: Record<string, unknown> | undefined;
  if (isCatalogFailure(body)) {
    const { code: errorName, message, suggestion: hint, details: extraDetails, ...extra } = body.error;
    code = String(errorName);
    errorCode = body.errorCode;
    text = typeof message === 'string' ? message : code;
    suggestion = typeof hint === 'string' ? hint : undefined;
    const merged = { ...extra, ...(extraDetails ?? {}) };
    details = Object.keys(merged).length > 0 ? merged : undefined;
  }
  const retryAfterMs = status === 429 ? parseRetryAfter(headers['retry-after'], details) : undefined;
  const error = new CatalogClientError({
    message: `Catalog ${id.method} ${id.path} failed: HTTP ${status} ${code}: ${text}`,
    errorCode,
    code,
    status,
    details,
    suggestion,
    retryable: status === 429 || status >= 500,
    method: id.method,
    path: id.path,
    retryAfterMs,
    redact,
  });
  if (status === 429)
    return { ok: false, error, outcome: 'rate_limited', verdict: 'healthy', retryReason: 'rate_limited' };
  if (status === 401 || status === 403)
    return { ok: false, error, outcome: 'auth_error', verdict: 'auth', retryReason: null };
  if (status >= 500)
    return { ok: false, error, outcome: 'server_error', verdict: 'unavailable', retryReason: 'server_error' };
  const outcome: CallOutcome =
    code === ClientErrorCode.INVALID_RESPONSE ? 'invalid_response' : 'client_error';
  return { ok: false, error, outcome, verdict: 'healthy', retryReason: null };
}

/** Maps a failure without an answer (time-out, refused or dropped connection). */
export function fromTransportError(
  id: RequestIdentity,
  cause: unknown,
  timedOut: boolean,
  timeoutMs: number,
  redact: Redact = noRedaction,
): AttemptResult {
  const causeCode = isAxiosError(cause) ? cause.code : cause instanceof Error ? cause.name : undefined;
  const isTimeout = timedOut || causeCode === 'ECONNABORTED' || causeCode === 'ETIMEDOUT';
  const error = new CatalogClientError({
    message: isTimeout
      ? `Catalog ${id.method} ${id.path} failed: no answer within ${timeoutMs} ms`
      : `Catalog ${id.method} ${id.path} failed: connection error (${causeCode ?? 'unknown'})`,
    errorCode: null,
    code: isTimeout ? ClientErrorCode.TIMEOUT : ClientErrorCode.NETWORK_ERROR,
    status: null,
    details: isTimeout ? { timeoutMs } : { cause: causeCode ?? 'unknown' },
    retryable: true,
    method: id.method,
    path: id.path,
    redact,
  });
  return isTimeout
    ? { ok: false, error, outcome: 'timeout', verdict: 'unavailable', retryReason: 'timeout' }
    : { ok: false, error, outcome: 'network_error', verdict: 'unavailable', retryReason: 'network_error' };
}

/** `Retry-After` in seconds or as an HTTP date, or the envelope's `retry_after_seconds`. */
export function parseRetryAfter(
  header: unknown,
  details: Record<string, unknown> | undefined,
): number | undefined {
  const candidates: number[] = [];
  if (typeof header === 'string' && header.trim() !== '') {
    const seconds = Number(header);
    if (Number.isFinite(seconds)) candidates.push(Math.max(0, seconds * 1000));
    else {
      const date = Date.parse(header);
      if (!Number.isNaN(date)) candidates.push(Math.max(0, date - Date.now()));
    }
  }
  const fromBody = details?.retry_after_seconds;
  if (typeof fromBody === 'number' && Number.isFinite(fromBody))
    candidates.push(Math.max(0, fromBody * 1000));
  return candidates.length > 0 ? Math.max(...candidates) : undefined;
}
