/** What a fault rule applies to; every given field must match. */
export interface FaultMatch {
  method?: string;
  /** Exact path, or a prefix ending in `*`. */
  path?: string;
}

export interface FaultRule extends FaultMatch {
  /** Chance (0..1) that an eligible request triggers it; 1 by default. */
  probability?: number;
  /** How many times it may trigger; unlimited when absent. */
  count?: number;
}

/** Faults injected into an account's next `/v1` requests (README, "Fault injection"). */
export interface FaultPlan {
  /** Answer 500 `internal_error` instead of handling the request. */
  error500?: FaultRule;
  /** Answer 429 with `Retry-After` (default 2 s) instead of handling the request. */
  burst429?: FaultRule & { retryAfterSeconds?: number };
  /** Wait before handling the request. */
  latency?: FaultRule & { ms: number };
  /** Handle the request (the write happens), then cut the connection without an answer. */
  commitThenDrop?: FaultRule;
  /** Seed of the random draws for `probability`, for repeatable runs. */
  seed?: number;
}

export type FaultKind = 'error500' | 'burst429' | 'latency' | 'commitThenDrop';
export const FAULT_KINDS: readonly FaultKind[] = ['error500', 'burst429', 'latency', 'commitThenDrop'];
