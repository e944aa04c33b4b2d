import axios, { type AxiosInstance } from 'axios';
import { CatalogLimits, CatalogTimeouts } from '#lib/catalog-contract';
import type { Clock } from '#lib/clock';
import type { BreakerPermit, CircuitBreaker } from '../breaker/circuit-breaker.js';
import { CatalogClientError, ClientErrorCode } from '../errors/catalog-client.error.js';
import type { Priority } from '../limiter/priority-queue.js';
import { LimiterClosedError } from '../limiter/queued-rate-limiter.js';
import type { RateLimiter } from '../limiter/rate-limiter.js';
import type { CatalogClientLogger, CatalogClientMetrics } from '../metrics/client-metrics.js';
import {
  type AttemptResult,
  fromResponse,
  fromTransportError,
  type Redact,
  redactorFor,
} from './error-mapping.js';

export type HttpMethod = 'GET' | 'POST' | 'PATCH' | 'DELETE';

export interface CatalogRequest {
  method: HttpMethod;
  /** Route template, e.g. `GET /v1/products/{skuId}` (metrics label). */
  endpoint: string;
  /** Concrete path, starting with `/v1`. */
  path: string;
  query?: Record<string, string>;
  body?: unknown;
  priority: Priority;
  /** Which time-out applies: reads and searches, or writes. */
  timeout: 'read' | 'write';
  /** Whether 5xx, time-outs and dropped connections may be retried (GET, search, PATCH, DELETE). */
  repeatable: boolean;
}

export interface RetryOptions {
  /** HTTP attempts for a repeatable call, the first included (429s not counted). Default 4. */
  maxAttempts?: number;
  /** Back-off base: attempt n waits a random time in [0, base * 2^(n-1)] (full jitter). Default 500 ms. */
  baseDelayMs?: number;
  /** Back-off cap. Default 30 s. */
  maxDelayMs?: number;
  /** 429 answers absorbed per call before the error is thrown. Default 8. */
  maxRateLimitRetries?: number;
  /** Random extra pause after a 429, in [0, this]. Default 1 s. */
  rateLimitJitterMs?: number;
  /** Creates: after a time-out, wait at least this long before looking the record up. Default 5 s. */
  timeoutSettleMs?: number;
}

export interface TimeoutOptions {
  /** GET and searches. Default 30 s. */
  readMs?: number;
  /** POST, PATCH, DELETE. Default 60 s. */
  writeMs?: number;
  /** Object-store PUT. Default 60 s. */
  uploadMs?: number;
}

export interface TransportOptions {
  baseUrl: string;
  apiKey: string;
  clock: Clock;
  limiter: RateLimiter;
  breaker: CircuitBreaker;
  metrics: CatalogClientMetrics;
  logger?: CatalogClientLogger;
  retry?: RetryOptions;
  timeouts?: TimeoutOptions;
  /** Source of jitter, in [0, 1). */
  random?: () => number;
}

/** The result of a DELETE: answered, or answered 404 after an ambiguous earlier attempt. */
export type DeleteExchange<T> = { gone: false; data: T } | { gone: true };

/**
 * Every `/v1` call goes through `send`: breaker, rate budget, axios with a time-out, mapping of
 * the answer to data or a `CatalogClientError`, 429 pauses and retries with back-off.
 */
export class CatalogTransport {
  readonly #http: AxiosInstance;
  readonly #redact: Redact;
  private readonly retry: Required<Omit<RetryOptions, 'timeoutSettleMs'>>;
  readonly timeouts: Required<TimeoutOptions>;

  private readonly options: TransportOptions;

  constructor(options: TransportOptions) {
    this.options = options;
    this.#redact = redactorFor(options.apiKey);
    this.#http = axios.create({
      baseURL: options.baseUrl.replace(/\/+$/, ''),
      headers: { 'X-API-Key': options.apiKey, Accept: 'application/json' },
      validateStatus: () => true,
      maxRedirects: 0,
      responseType: 'json',
    });
    this.retry = {
      maxAttempts: options.retry?.maxAttempts ?? 4,
      baseDelayMs: options.retry?.baseDelayMs ?? 500,
      maxDelayMs: options.retry?.maxDelayMs ?? 30_000,
      maxRateLimitRetries: options.retry?.maxRateLimitRetries ?? 8,
      rateLimitJitterMs: options.retry?.rateLimitJitterMs ?? 1_000,
    };
    this.timeouts = {
      readMs: options.timeouts?.readMs ?? CatalogTimeouts.READ_MS,
      writeMs: options.timeouts?.writeMs ?? CatalogTimeouts.WRITE_MS,
      uploadMs: options.timeouts?.uploadMs ?? CatalogTimeouts.OBJECT_STORE_UPLOAD_MS,
    };
  }

  async send<T>(request: CatalogRequest): Promise<T> {
    const result = await this.exchange<T>(request, false);
    if (result.gone) throw new Error('unreachable: gone without goneAfterRetry');
    return result.data;
  }

  /** A DELETE: a 404 after an ambiguous failure (5xx, time-out, drop) means the first one worked. */
  sendDelete<T>(request: CatalogRequest): Promise<DeleteExchange<T>> {
    return this.exchange<T>(request, true);
  }

  private async exchange<T>(request: CatalogRequest, goneAfterRetry: boolean): Promise<DeleteExchange<T>> {
    const { breaker, metrics } = this.options;
    let attempts = 0;
    let failures = 0;
    let rateLimited = 0;
    let ambiguous = false;
    for (;;) {
      const permit = breaker.tryAdmit();
      if (!permit) {
        metrics.rejected({ endpoint: request.endpoint, reason: 'circuit_open' });
        throw this.circuitOpen(request, attempts);
      }
      await this.acquire(request, permit, attempts);
      attempts += 1;
      const result = await this.attempt(request);
      if (result.ok) {
        breaker.recordSuccess(permit);
        return { gone: false, data: result.data as T };
      }
      if (result.verdict === 'healthy') breaker.recordSuccess(permit);
      else breaker.recordFailure(permit, result.verdict);
      const { error } = result;
      error.attempts = attempts;
      if (goneAfterRetry && ambiguous && error.status === 404) return { gone: true };
      if (result.retryReason === 'rate_limited') {
        if (rateLimited >= this.retry.maxRateLimitRetries) throw error;
        rateLimited += 1;
        await this.pauseAfter429(request, error);
        continue;
      }
      failures += 1;
      if (result.retryReason === null || !request.repeatable || failures >= this.retry.maxAttempts)
        throw error;
      // This failure opened the breaker: stop here rather than wait for a retry it would refuse.
      if (breaker.state === 'open') throw error;
      ambiguous = true;
      const delayMs = this.backoff(failures);
      metrics.retry({
        endpoint: request.endpoint,
        attempt: attempts + 1,
        reason: result.retryReason,
        delayMs,
      });
      this.options.logger?.debug?.('catalog call retried', {
        endpoint: request.endpoint,
        attempt: attempts,
        code: error.code,
        delayMs,
      });
      await this.options.clock.sleep(delayMs);
    }
  }

  private async acquire(request: CatalogRequest, permit: BreakerPermit, attempts: number): Promise<void> {
    const { clock, limiter, metrics, breaker } = this.options;
    const started = clock.now();
    try {
      await limiter.acquire(request.priority);
    } catch (cause) {
      breaker.release(permit);
      const closed = cause instanceof LimiterClosedError;
      throw new CatalogClientError({
        message: closed
          ? `Catalog ${request.method} ${request.path} not sent: the client was closed`
          : `Catalog ${request.method} ${request.path} not sent: rate limiter unavailable (${cause instanceof Error ? cause.name : 'error'})`,
        errorCode: null,
        code: closed ? ClientErrorCode.CLIENT_CLOSED : ClientErrorCode.LIMITER_UNAVAILABLE,
        status: null,
        retryable: !closed,
        method: request.method,
        path: request.path,
        attempts,
      });
    }
    metrics.limiterWait({
      endpoint: request.endpoint,
      priority: request.priority,
      waitedMs: clock.now() - started,
    });
  }

  /** One HTTP exchange; never throws. Latency is measured on the wall clock. */
  private async attempt(request: CatalogRequest): Promise<AttemptResult> {
    const timeoutMs = request.timeout === 'read' ? this.timeouts.readMs : this.timeouts.writeMs;
    const id = { method: request.method, path: request.path };
    const deadline = AbortSignal.timeout(timeoutMs);
    const started = performance.now();
    let result: AttemptResult;
    try {
      const response = await this.#http.request({
        method: request.method,
        url: request.path,
        params: request.query,
        data: request.body,
        timeout: timeoutMs,
        signal: deadline,
      });
      result = fromResponse(id, response.status, response.data, { ...response.headers }, this.#redact);
    } catch (cause) {
      result = fromTransportError(id, cause, deadline.aborted, timeoutMs);
    }
    const durationMs = performance.now() - started;
    const status = result.ok ? result.status : result.error.status;
    this.options.metrics.call({
      endpoint: request.endpoint,
      outcome: result.ok ? 'success' : result.outcome,
      status,
      durationMs,
    });
    this.options.logger?.debug?.('catalog call', { endpoint: request.endpoint, status, durationMs });
    return result;
  }

  /** The whole limiter pauses: at least 2 s or Retry-After, whichever is larger, plus jitter. */
  private async pauseAfter429(request: CatalogRequest, error: CatalogClientError): Promise<void> {
    const base = Math.max(CatalogLimits.RETRY_AFTER_429_MIN_MS, error.retryAfterMs ?? 0);
    const pauseMs = Math.ceil(base + this.random() * this.retry.rateLimitJitterMs);
    this.options.metrics.rateLimited({ endpoint: request.endpoint, pauseMs });
    this.options.metrics.retry({
      endpoint: request.endpoint,
      attempt: error.attempts + 1,
      reason: 'rate_limited',
      delayMs: pauseMs,
    });
    this.options.logger?.warn?.('catalog rate limit hit; pausing the limiter', {
      endpoint: request.endpoint,
      pauseMs,
    });
    try {
      await this.options.limiter.pause(pauseMs);
    } catch {
      // The shared store failed: pause this caller at least.
      await this.options.clock.sleep(pauseMs);
    }
  }

  private backoff(failures: number): number {
    const ceiling = Math.min(this.retry.maxDelayMs, this.retry.baseDelayMs * 2 ** (failures - 1));
    return Math.floor(this.random() * ceiling);
  }

  private random(): number {
    return (this.options.random ?? Math.random)();
  }

  private circuitOpen(request: CatalogRequest, attempts: number): CatalogClientError {
    const snapshot = this.options.breaker.snapshot;
    return new CatalogClientError({
      message: `Catalog ${request.method} ${request.path} not sent: circuit open (${snapshot.reason ?? 'probe in flight'})`,
      errorCode: null,
      code: ClientErrorCode.CIRCUIT_OPEN,
      status: null,
      details: { reason: snapshot.reason, retryAt: snapshot.retryAt },
      suggestion:
        snapshot.reason === 'auth'
          ? 'The API key was refused (401/403): check it in the portal, then call client.breaker.reset().'
          : 'The catalog is failing: pause work until client.breaker.state is closed again.',
      retryable: false,
      method: request.method,
      path: request.path,
      attempts,
    });
  }
}
