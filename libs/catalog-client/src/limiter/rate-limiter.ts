import type { Priority } from './priority-queue.js';

/**
 * The rate budget in front of every `/v1` call. One budget per catalog API key: every client
 * using the same key must go through the same limiter (the same instance in one process, or a
 * shared implementation across processes).
 */
export interface RateLimiter {
  /**
   * Resolves when the caller may send one request. Higher priorities are served first. When
   * `signal` aborts before the grant, the wait ends (rejected, `LimiterAbortedError`) without
   * spending budget: the client aborts queued calls when its breaker opens. Implementations that
   * ignore `signal` still work: the client asks the breaker again after the grant.
   */
  acquire(priority?: Priority, signal?: AbortSignal): Promise<void>;
  /** Stops every grant for `ms` (after a 429). Never shortens a longer pause already in force. */
  pause(ms: number): Promise<void>;
  /** Rejects queued acquires and releases what the limiter holds (connections are the caller's). */
  close(): Promise<void>;
}
