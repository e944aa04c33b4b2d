import type { Readable } from 'node:stream';
import axios, { type AxiosInstance } from 'axios';
import type {
  UploadPrepareRequest,
  UploadPrepareResponse,
  UploadStatusResponse,
} from '#lib/catalog-contract';
import type { Clock } from '#lib/clock';
import { CatalogClientError, ClientErrorCode } from '../errors/catalog-client.error.js';
import { noRedaction, type Redact } from '../errors/redaction.js';
import type { Priority } from '../limiter/priority-queue.js';
import type { CatalogClientLogger, CatalogClientMetrics } from '../metrics/client-metrics.js';
import { contentTypeFor } from './content-type.js';

/** The bytes: a buffer, or a stream. A one-shot stream cannot be sent twice (no re-prepare after a failed PUT); a factory can. */
export type UploadBody = Uint8Array | Readable | (() => Readable | Promise<Readable>);

export interface UploadImageInput extends UploadPrepareRequest {
  data: UploadBody;
  /** Default: from the file name's extension. */
  contentType?: string;
  /** Sent as Content-Length for streams when given. */
  contentLength?: number;
  /** Priority of prepare (default `normal`); status polls are always `bulk`. */
  priority?: Priority;
}

export interface UploadResult {
  fileId: string;
  status: UploadStatusResponse;
  prepared: UploadPrepareResponse;
  /** Prepare calls made (more than 1 when a URL expired). */
  prepares: number;
  /** Status calls made. */
  polls: number;
}

export interface UploadOptions {
  /** First status poll this long after the PUT (processing takes 30 s to 2 min). Default 30 s. */
  firstPollDelayMs?: number;
  /** Wait between later polls starts here and grows by `pollBackoffFactor`. Default 5 s. */
  pollDelayMs?: number;
  pollBackoffFactor?: number;
  /** Longest wait between polls. Default 30 s. */
  maxPollDelayMs?: number;
  /** Give up (`upload_processing_timeout`) after this long of polling. Default 10 min. */
  maxProcessingMs?: number;
  /** Treat the URL as expired this long before `expiresIn` ends. Default 30 s. */
  expiryMarginMs?: number;
  /** Prepare calls at most (URL expiries). Default 3. */
  maxPrepares?: number;
  /** PUT attempts on 5xx or dropped connections (replayable bodies only). Default 3. */
  putAttempts?: number;
}

export interface UploadApi {
  prepareUpload(body: UploadPrepareRequest, call?: { priority?: Priority }): Promise<UploadPrepareResponse>;
  getUploadStatus(by: { uploadId: string }, call?: { priority?: Priority }): Promise<UploadStatusResponse>;
}

type PutOutcome = 'done' | 'expired';

export interface UploadHelperDeps {
  api: UploadApi;
  clock: Clock;
  metrics: CatalogClientMetrics;
  logger?: CatalogClientLogger;
  /** Scrubs the API key from the errors built here. */
  redact?: Redact;
  uploadTimeoutMs: number;
  options?: UploadOptions;
}

/**
 * The two-step upload: prepare, PUT the bytes to the object store (no API key, outside the rate
 * budget), then poll the status with back-off until the `fileId` is there. An expired URL (found
 * before sending, or refused by the object store) is prepared again.
 */
export class UploadHelper {
  readonly #store: AxiosInstance;
  private readonly o: Required<UploadOptions>;
  private readonly deps: UploadHelperDeps;

  constructor(deps: UploadHelperDeps) {
    this.deps = deps;
    // A separate instance: the object store must never receive the catalog API key.
    this.#store = axios.create({ validateStatus: () => true, maxRedirects: 0, maxBodyLength: Infinity });
    const o = deps.options ?? {};
    this.o = {
      firstPollDelayMs: o.firstPollDelayMs ?? 30_000,
      pollDelayMs: o.pollDelayMs ?? 5_000,
      pollBackoffFactor: o.pollBackoffFactor ?? 1.5,
      maxPollDelayMs: o.maxPollDelayMs ?? 30_000,
      maxProcessingMs: o.maxProcessingMs ?? 600_000,
      expiryMarginMs: o.expiryMarginMs ?? 30_000,
      maxPrepares: o.maxPrepares ?? 3,
      putAttempts: o.putAttempts ?? 3,
    };
  }

  async upload(input: UploadImageInput): Promise<UploadResult> {
    const { api, clock, metrics } = this.deps;
    const { data, contentType, contentLength, priority, ...prepareBody } = input;
    const type = contentType ?? contentTypeFor(input.fileName);
    let prepared: UploadPrepareResponse | undefined;
    let prepares = 0;
    while (!prepared) {
      if (prepares >= this.o.maxPrepares)
        throw this.failure('upload URL expired on every attempt', 'PUT', undefined);
      if (prepares > 0) metrics.upload({ step: 'reprepare' });
      const candidate = await api.prepareUpload(prepareBody, { priority });
      prepares += 1;
      const expiresAt = clock.now() + candidate.expiresIn * 1000 - this.o.expiryMarginMs;
      if ((await this.put(candidate, data, type, contentLength, expiresAt)) === 'done') prepared = candidate;
    }
    const { status, polls } = await this.poll(prepared);
    metrics.upload({ step: 'complete' });
    return { fileId: status.fileId, status, prepared, prepares, polls };
  }

  private async put(
    prepared: UploadPrepareResponse,
    data: UploadBody,
    contentType: string,
    contentLength: number | undefined,
    expiresAt: number,
  ): Promise<PutOutcome> {
    const replayable = typeof data === 'function' || data instanceof Uint8Array;
    const path = safePath(prepared.uploadUrl);
    for (let attempt = 1; ; attempt++) {
      if (this.deps.clock.now() >= expiresAt) return 'expired';
      const started = performance.now();
      let status: number;
      try {
        const body = typeof data === 'function' ? await data() : data;
        const headers: Record<string, string> = { 'Content-Type': contentType };
        if (!(body instanceof Uint8Array) && contentLength !== undefined)
          headers['Content-Length'] = String(contentLength);
        const response = await this.#store.put(prepared.uploadUrl, body, {
          headers,
          timeout: this.deps.uploadTimeoutMs,
          signal: AbortSignal.timeout(this.deps.uploadTimeoutMs),
        });
        status = response.status;
      } catch (cause) {
        status = 0;
        this.deps.logger?.warn?.('object-store upload failed', { path, cause: errorName(cause), attempt });
      }
      this.deps.metrics.upload({ step: 'put', durationMs: performance.now() - started });
      if (status >= 200 && status < 300) return 'done';
      // Pre-signed URLs answer 403 (or 410) once expired or otherwise invalid: a new one fixes it.
      if (status === 403 || status === 410) {
        if (!replayable)
          throw this.failure('object store refused the URL; the stream cannot be sent again', 'PUT', status);
        return 'expired';
      }
      const transient = status === 0 || status >= 500;
      if (!transient || !replayable || attempt >= this.o.putAttempts) {
        throw this.failure(
          `object store answered ${status === 0 ? 'nothing' : `HTTP ${status}`}`,
          'PUT',
          status,
        );
      }
      await this.deps.clock.sleep(Math.min(this.o.maxPollDelayMs, 1_000 * 2 ** (attempt - 1)));
    }
  }

  private async poll(
    prepared: UploadPrepareResponse,
  ): Promise<{ status: UploadStatusResponse; polls: number }> {
    const { api, clock, metrics } = this.deps;
    const started = clock.now();
    let delay = this.o.firstPollDelayMs;
    let next = this.o.pollDelayMs;
    for (let polls = 1; ; polls++) {
      await clock.sleep(delay);
      metrics.upload({ step: 'poll' });
      try {
        return {
          status: await api.getUploadStatus({ uploadId: prepared.uploadId }, { priority: 'bulk' }),
          polls,
        };
      } catch (error) {
        if (!(error instanceof CatalogClientError) || error.status !== 404) throw error;
      }
      if (clock.now() - started >= this.o.maxProcessingMs) {
        throw new CatalogClientError({
          message: `Upload ${prepared.uploadId} still processing after ${clock.now() - started} ms`,
          errorCode: null,
          code: ClientErrorCode.UPLOAD_PROCESSING_TIMEOUT,
          status: null,
          details: { uploadId: prepared.uploadId, fileName: prepared.fileName, polls },
          suggestion: 'Poll getUploadStatus({ uploadId }) later; the upload itself succeeded.',
          retryable: true,
          method: 'GET',
          path: '/v1/upload/status',
          redact: this.deps.redact ?? noRedaction,
        });
      }
      delay = next;
      next = Math.min(this.o.maxPollDelayMs, next * this.o.pollBackoffFactor);
    }
  }

  private failure(reason: string, method: string, status: number | undefined): CatalogClientError {
    return new CatalogClientError({
      message: `Upload failed: ${reason}`,
      errorCode: null,
      code: ClientErrorCode.UPLOAD_FAILED,
      status: status && status > 0 ? status : null,
      retryable: status === undefined || status === 0 || status >= 500 || status === 403 || status === 410,
      method,
      path: '(object store)',
      redact: this.deps.redact ?? noRedaction,
    });
  }
}

/** The URL's path without its query (pre-signed URLs carry signatures there). */
function safePath(url: string): string {
  try {
    return new URL(url).pathname;
  } catch {
    return '(invalid url)';
  }
}

function errorName(cause: unknown): string {
  if (typeof cause === 'object' && cause !== null && 'code' in cause && typeof cause.code === 'string')
    return cause.code;
  return cause instanceof Error ? cause.name : 'unknown';
}
