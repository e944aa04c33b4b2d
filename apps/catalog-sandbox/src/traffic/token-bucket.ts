export interface RateLimitSettings {
  enabled: boolean;
  /** Tokens added per second. */
  ratePerSecond: number;
  /** Bucket size: the largest burst allowed after a quiet period. */
  burst: number;
}

/**
 * A token bucket read against an external clock: `take(now)` either spends a token or says how
 * long until one is available. Deterministic for a given sequence of `now` values.
 */
export class TokenBucket {
  private tokens: number;
  private last: number | null = null;

  constructor(private settings: RateLimitSettings) {
    this.tokens = settings.burst;
  }

  configure(settings: RateLimitSettings): void {
    this.settings = settings;
    this.tokens = Math.min(this.tokens, settings.burst);
  }

  /** Spends one token; or answers the milliseconds to wait for one. */
  take(now: number): { allowed: true } | { allowed: false; retryAfterMs: number } {
    if (!this.settings.enabled) return { allowed: true };
    this.refill(now);
    if (this.tokens >= 1) {
      this.tokens -= 1;
      return { allowed: true };
    }
    return {
      allowed: false,
      retryAfterMs: Math.ceil(((1 - this.tokens) / this.settings.ratePerSecond) * 1000),
    };
  }

  private refill(now: number): void {
    if (this.last !== null && now > this.last) {
      this.tokens = Math.min(
        this.settings.burst,
        this.tokens + ((now - this.last) / 1000) * this.settings.ratePerSecond,
      );
    }
    this.last = Math.max(now, this.last ?? now);
  }
}
