import type { BreakerOpenReason, BreakerState } from '../breaker/circuit-breaker.js';
import { noRedaction, type Redact, redactDeep } from '../errors/redaction.js';
import type { Priority } from '../limiter/priority-queue.js';
import { callSafely } from './call-safely.js';

/** How one HTTP attempt ended. */
export type CallOutcome =
  | 'success'
  | 'client_error'
  | 'auth_error'
  | 'rate_limited'
  | 'server_error'
  | 'timeout'
  | 'network_error'
  | 'invalid_response';

/** Why the client retries. */
export type RetryReason = 'server_error' | 'timeout' | 'network_error' | 'rate_limited';

/**
 * `endpoint` is the route template, e.g. `GET /v1/products/{skuId}`: low cardinality, ready to be
 * a metric label. No hook receives headers, bodies, query strings or the API key.
 */
export interface CatalogClientMetrics {
  /** Every HTTP attempt to the catalog API, with its latency. */
  call(event: { endpoint: string; outcome: CallOutcome; status: number | null; durationMs: number }): void;
  /** A 429, and how long the whole limiter pauses. */
  rateLimited(event: { endpoint: string; pauseMs: number }): void;
  /** A retry is about to happen after `delayMs`. */
  retry(event: { endpoint: string; attempt: number; reason: RetryReason; delayMs: number }): void;
  /** A call refused unsent because the breaker is open. */
  rejected(event: { endpoint: string; reason: 'circuit_open' }): void;
  /** The breaker changed state. */
  breakerState(event: { from: BreakerState; to: BreakerState; reason: BreakerOpenReason | null }): void;
  /** Time a call waited for the rate budget. */
  limiterWait(event: { endpoint: string; priority: Priority; waitedMs: number }): void;
  /** An ambiguous create was resolved: the record found was adopted, or the create was sent again. */
  createReconciled(event: { endpoint: string; result: 'adopted' | 'created_again' }): void;
  /** An upload step: prepare again after an expired URL, a status poll, the object-store PUT. */
  upload(event: { step: 'put' | 'reprepare' | 'poll' | 'complete'; durationMs?: number }): void;
}

const noop = (): void => {};

export const noopMetrics: CatalogClientMetrics = {
  call: noop,
  rateLimited: noop,
  retry: noop,
  rejected: noop,
  breakerState: noop,
  limiterWait: noop,
  createReconciled: noop,
  upload: noop,
};

/** Fills the hooks not given with no-ops, and keeps a failing hook (throw or rejection) from failing a call. */
export function resolveMetrics(hooks: Partial<CatalogClientMetrics> = {}): CatalogClientMetrics {
  const safe = <E>(hook: ((event: E) => void) | undefined) =>
    hook ? (event: E) => callSafely(() => hook(event)) : noop;
  return {
    call: safe(hooks.call),
    rateLimited: safe(hooks.rateLimited),
    retry: safe(hooks.retry),
    rejected: safe(hooks.rejected),
    breakerState: safe(hooks.breakerState),
    limiterWait: safe(hooks.limiterWait),
    createReconciled: safe(hooks.createReconciled),
    upload: safe(hooks.upload),
  };
}

/** Structured log lines from the client. Fields never hold headers, bodies or the API key. */
export interface CatalogClientLogger {
  debug?(message: string, fields: Record<string, unknown>): void;
  warn?(message: string, fields: Record<string, unknown>): void;
}

/**
 * The logger the client's parts use: both levels present, each line scrubbed of the key (message
 * and fields), and a throwing or rejecting logger swallowed. The caller's methods are called as
 * methods (`this` is their logger) and looked up at each line.
 */
export function resolveLogger(
  logger: CatalogClientLogger | undefined,
  redact: Redact = noRedaction,
): Required<CatalogClientLogger> {
  const line = (level: 'debug' | 'warn') => (message: string, fields: Record<string, unknown>) => {
    if (!logger) return;
    callSafely(() => logger[level]?.(redact(message), redactDeep(fields, redact) as Record<string, unknown>));
  };
  return { debug: line('debug'), warn: line('warn') };
}
