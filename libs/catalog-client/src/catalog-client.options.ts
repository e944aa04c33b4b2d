import type { DeletionResponse } from '#lib/catalog-contract';
import type { Clock } from '#lib/clock';
import type { CircuitBreakerOptions } from './breaker/circuit-breaker.js';
import type { AmbiguousCreatePolicy } from './creates/create-reconciler.js';
import type { RetryOptions, TimeoutOptions } from './http/catalog-transport.js';
import type { RateBudget } from './limiter/gcra.js';
import type { Priority } from './limiter/priority-queue.js';
import type { RateLimiter } from './limiter/rate-limiter.js';
import type { CatalogClientLogger, CatalogClientMetrics } from './metrics/client-metrics.js';
import type { UploadOptions } from './uploads/upload-helper.js';

// The options and result types of `CatalogClient`, apart so the client file stays readable.

export interface CatalogClientOptions {
  /** The service address, without `/v1` (e.g. `http://127.0.0.1:4010`). */
  baseUrl: string;
  apiKey: string;
  /** All waiting (limiter, 429 pauses, back-off, polls, breaker cool-down) uses it. */
  clock?: Clock;
  /**
   * The rate budget: an instance (share it between clients using the same key), or a factory
   * given the key's fingerprint (e.g. a Redis or PostgreSQL limiter). Default: in-process,
   * `rate` below.
   */
  limiter?: RateLimiter | ((context: { fingerprint: string; clock: Clock }) => RateLimiter);
  /** Budget of the default in-process limiter. Default 4 per second, burst 2 (`DEFAULT_RATE_BUDGET`). */
  rate?: Partial<RateBudget>;
  timeouts?: TimeoutOptions;
  retry?: RetryOptions;
  breaker?: CircuitBreakerOptions;
  uploads?: UploadOptions;
  metrics?: Partial<CatalogClientMetrics>;
  logger?: CatalogClientLogger;
  /** Jitter source in [0, 1) (tests make it deterministic). */
  random?: () => number;
}

export interface CallOptions {
  /** Default `normal`. */
  priority?: Priority;
}

export interface CreateOptions extends CallOptions {
  /** Look the `supplierSku` up first and adopt the record if it exists (after a crash mid-create). */
  lookupFirst?: boolean;
  /**
   * After an ambiguous failure (the record may have been committed): `adopt-or-recreate`
   * (default: look up, adopt, else POST again), `adopt-or-throw` (look up, adopt, else throw
   * `create_outcome_unknown`; never a second POST) or `throw` (throw `create_outcome_unknown` at
   * once). See README, "Creates that survive a dropped connection".
   */
  onAmbiguous?: AmbiguousCreatePolicy;
}

export interface IterateOptions extends CallOptions {
  /** Items per call, at most 500 (the default). */
  pageSize?: number;
}

/** A DELETE's result: the catalog's answer, or a 404 after a retry (the first attempt did it). */
export type DeleteOutcome =
  | (DeletionResponse & { confirmedBy: 'response' })
  | { skuId: string; status: 'deleted'; confirmedBy: 'not_found_after_retry' };
