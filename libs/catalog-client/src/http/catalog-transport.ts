import axios, { type AxiosInstance } from 'axios';
import { CatalogLimits, CatalogTimeouts } from '#lib/catalog-contract';
import type { Clock } from '#lib/clock';
import type { BreakerPermit, CircuitBreaker } from '../breaker/circuit-breaker.js';
import type { CatalogClientError } from '../errors/catalog-client.error.js';
import { type Redact, redactorFor } from '../errors/redaction.js';
import type { Priority } from '../limiter/priority-queue.js';
import type { RateLimiter } from '../limiter/rate-limiter.js';
import {
  type CatalogClientLogger,
  type CatalogClientMetrics,
  resolveLogger,
} from '../metrics/client-metrics.js';
import { Admission } from './admission.js';
import { type AttemptResult, fromResponse, fromTransportError } from './error-mapping.js';
import { writeOutcomeUnknown } from './transport-errors.js';

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
  /**
   * Whether it is sent again after a time-out too (default: as `repeatable`). False for PATCH:
   * the timed-out attempt may still be running in the catalog, and a second one would race it.
   */
  resendAfterTimeout?: boolean;
  /**
   * A write whose failed attempts may have been applied (PATCH, DELETE): a failure after an
   * ambiguous attempt (time-out, dropped connection, 5xx) ends as `write_outcome_unknown`.
   */
  mayBeApplied?: boolean;
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
 * Every `/v1` call goes through `send`: breaker and rate budget (`Admission`), axios with a
 * time-out, mapping of the answer to data or a `CatalogClientError`, the breaker's verdict, 429
 * pauses and retries with back-off. Hooks (metrics, logger) run after the breaker has its verdict
 * and can never fail a call.
 */
export class CatalogTransport {
  readonly #http: AxiosInstance;
  /** Scrubs the API key from every error and log line (errors are built with it). */
  readonly redact: Redact;
  readonly #admission: Admission;
  readonly #logger: Required<CatalogClientLogger>;
  private readonly retry: Required<Omit<RetryOptions, 'timeoutSettleMs'>>;
  readonly timeouts: Required<TimeoutOptions>;

  private readonly options: TransportOptions;

  constructor(options: TransportOptions) {
    this.options = options;
    this.redact = redactorFor(options.apiKey);
    this.#logger = resolveLogger(options.logger, this.redact);
    this.#admission = new Admission({ ...options, redact: this.redact });
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
    /** The first failure after which this call's write may have been applied. */
    let ambiguous: CatalogClientError | null = null;
    const fail = (error: CatalogClientError): CatalogClientError =>
      ambiguous && request.mayBeApplied
        ? writeOutcomeUnknown(
            { method: request.method, path: request.path, attempts, redact: this.redact },
            error,
            ambiguous,
          )
        : error;
    for (;;) {
      let permit: BreakerPermit;
      try {
        permit = await this.#admission.admit(request, attempts);
      } catch (error) {
        throw fail(error as CatalogClientError);
      }
      attempts += 1;
      const result = await this.attempt(request, permit);
      if (result.ok) return { gone: false, data: result.data as T };
      const { error } = result;
      error.attempts = attempts;
      if (goneAfterRetry && ambiguous && error.status === 404) return { gone: true };
      if (result.retryReason === 'rate_limited') {
        if (rateLimited >= this.retry.maxRateLimitRetries) throw fail(error);
        rateLimited += 1;
        await this.pauseAfter429(request, error);
        continue;
      }
      failures += 1;
      if (result.verdict === 'unavailable') ambiguous ??= error;
      if (result.retryReason === null || !request.repeatable || failures >= this.retry.maxAttempts)
        throw fail(error);
      if (result.retryReason === 'timeout' && request.resendAfterTimeout === false) throw fail(error);
      // This failure opened the breaker: stop here rather than wait for a retry it would refuse.
      if (breaker.state === 'open') throw fail(error);
      const delayMs = this.backoff(failures);
      metrics.retry({
        endpoint: request.endpoint,
        attempt: attempts + 1,
        reason: result.retryReason,
        delayMs,
      });
      this.#logger.debug('catalog call retried', {
        endpoint: request.endpoint,
        attempt: attempts,
        code: error.code,
        delayMs,
      });
      await this.options.clock.sleep(delayMs);
    }
  }

  /**
   * One HTTP exchange; never throws. The breaker gets its verdict first, then the hooks run.
   * Latency is measured on the wall clock.
   */
  private async attempt(request: CatalogRequest, permit: BreakerPermit): Promise<AttemptResult> {
    const { breaker } = this.options;
    const timeoutMs = request.timeout === 'read' ? this.timeouts.readMs : this.timeouts.writeMs;
    const id = { method: request.method, path: request.path };
    const started = performance.now();
    let result: AttemptResult;
    try {
      result = await this.request(request, id, timeoutMs);
    } catch {
      // Not expected (the mapping never throws); the breaker must still get a verdict.
      result = fromTransportError(id, undefined, false, timeoutMs, this.redact);
    }
    if (result.ok || result.verdict === 'healthy') breaker.recordSuccess(permit);
    else breaker.recordFailure(permit, result.verdict);
    const durationMs = performance.now() - started;
    const status = result.ok ? result.status : result.error.status;
    this.options.metrics.call({
      endpoint: request.endpoint,
      outcome: result.ok ? 'success' : result.outcome,
      status,
      durationMs,
    });
    this.#logger.debug('catalog call', { endpoint: request.endpoint, status, durationMs });
    return result;
  }

  private async request(
    request: CatalogRequest,
    id: { method: string; path: string },
    timeoutMs: number,
  ): Promise<AttemptResult> {
    const deadline = AbortSignal.timeout(timeoutMs);
    try {
      const response = await this.#http.request({
        method: request.method,
        url: request.path,
        params: request.query,
        data: request.body,
        timeout: timeoutMs,
        signal: deadline,
      });
      return fromResponse(id, response.status, response.data, { ...response.headers }, this.redact);
    } catch (cause) {
      return fromTransportError(id, cause, deadline.aborted, timeoutMs, this.redact);
    }
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
    this.#logger.warn('catalog rate limit hit; pausing the limiter', {
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
}
