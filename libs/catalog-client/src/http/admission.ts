import type { Clock } from '#lib/clock';
import type { BreakerPermit, CircuitBreaker } from '../breaker/circuit-breaker.js';
import type { Redact } from '../errors/redaction.js';
import { LimiterAbortedError, LimiterClosedError } from '../limiter/queued-rate-limiter.js';
import type { RateLimiter } from '../limiter/rate-limiter.js';
import type { CatalogClientMetrics } from '../metrics/client-metrics.js';
import type { CatalogRequest } from './catalog-transport.js';
import { circuitOpenError, type ErrorContext, limiterError } from './transport-errors.js';

export interface AdmissionOptions {
  breaker: CircuitBreaker;
  limiter: RateLimiter;
  clock: Clock;
  metrics: CatalogClientMetrics;
  redact: Redact;
}

/**
 * The way in for every HTTP attempt: the breaker, then the rate budget, then the breaker again.
 * Why: a call can wait in the limiter's queue for a long time; if the breaker opens meanwhile
 * (a run of 5xx, a revoked key), the call must fail with `circuit_open`, unsent. Calls still
 * queued when it opens are taken out of the queue at once (their wait is aborted), so they spend
 * no budget; a grant that raced the opening is refused by the second look.
 */
export class Admission {
  private readonly options: AdmissionOptions;
  /** Aborted (and replaced) each time the breaker opens: it ends every wait in the queue. */
  private opened = new AbortController();

  constructor(options: AdmissionOptions) {
    this.options = options;
    options.breaker.onStateChange(({ to }) => {
      if (to !== 'open') return;
      const current = this.opened;
      this.opened = new AbortController();
      current.abort();
    });
  }

  /** A breaker permit and a slot of budget, or a `circuit_open` / limiter error. */
  async admit(request: CatalogRequest, attempts: number): Promise<BreakerPermit> {
    const { breaker, limiter, clock, metrics, redact } = this.options;
    const context: ErrorContext = { method: request.method, path: request.path, attempts, redact };
    const permit = breaker.tryAdmit();
    if (!permit) throw this.refused(request, context);
    const signal = this.opened.signal;
    const started = clock.now();
    try {
      await limiter.acquire(request.priority, signal);
    } catch (cause) {
      breaker.release(permit);
      if (signal.aborted || cause instanceof LimiterAbortedError) throw this.refused(request, context);
      throw limiterError(context, cause instanceof LimiterClosedError, cause);
    }
    metrics.limiterWait({
      endpoint: request.endpoint,
      priority: request.priority,
      waitedMs: clock.now() - started,
    });
    if (!breaker.stillAdmits(permit)) {
      breaker.release(permit);
      throw this.refused(request, context);
    }
    return permit;
  }

  private refused(request: CatalogRequest, context: ErrorContext) {
    this.options.metrics.rejected({ endpoint: request.endpoint, reason: 'circuit_open' });
    return circuitOpenError(context, this.options.breaker.snapshot);
  }
}
