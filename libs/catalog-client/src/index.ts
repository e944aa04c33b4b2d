export {
  type BreakerOpenReason,
  type BreakerSnapshot,
  type BreakerState,
  type BreakerTransition,
  CircuitBreaker,
  type CircuitBreakerOptions,
  type SharedBreakerState,
} from './breaker/circuit-breaker.js';
export {
  type CallOptions,
  CatalogClient,
  type CatalogClientOptions,
  type CreateOptions,
  type DeleteOutcome,
  type IterateOptions,
} from './catalog-client.js';
export type { AmbiguousCreatePolicy } from './creates/create-reconciler.js';
export {
  CatalogClientError,
  type CatalogClientErrorInit,
  ClientErrorCode,
  isCatalogClientError,
} from './errors/catalog-client.error.js';
export type { RetryOptions, TimeoutOptions } from './http/catalog-transport.js';
export { apiKeyFingerprint } from './limiter/api-key-fingerprint.js';
export { DEFAULT_RATE_BUDGET, type RateBudget } from './limiter/gcra.js';
export { InProcessRateLimiter, type InProcessRateLimiterOptions } from './limiter/in-process-rate-limiter.js';
export {
  PostgresRateLimiter,
  type PostgresRateLimiterOptions,
} from './limiter/postgres-rate-limiter.js';
export { PRIORITIES, type Priority } from './limiter/priority-queue.js';
export {
  LimiterAbortedError,
  LimiterClosedError,
  QueuedRateLimiter,
  type TakeResult,
} from './limiter/queued-rate-limiter.js';
export type { RateLimiter } from './limiter/rate-limiter.js';
export { RedisRateLimiter, type RedisRateLimiterOptions } from './limiter/redis-rate-limiter.js';
export {
  type CallOutcome,
  type CatalogClientLogger,
  type CatalogClientMetrics,
  noopMetrics,
  type RetryReason,
} from './metrics/client-metrics.js';
export type { UploadBody, UploadImageInput, UploadOptions, UploadResult } from './uploads/upload-helper.js';
