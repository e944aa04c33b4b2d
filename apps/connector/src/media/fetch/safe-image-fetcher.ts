import { createHash } from 'node:crypto';
import type { ImageExtension, ImageMediaType } from '#lib/catalog-contract';
import { describeUrl, MediaError, MediaErrorCode } from '../model/media-error.js';
import { type AllowedSource, isAllowedUrl } from './allowlist.js';
import { extensionOf, sniffImageFormat } from './image-format.js';

/** Limits of one image fetch. */
export interface ImageFetchOptions {
  /** Where bytes may come from; every redirect hop is checked too. */
  allowlist: readonly AllowedSource[];
  /** Largest image accepted, announced or streamed. Default 20 MiB. */
  maxBytes?: number;
  /** Whole fetch (every hop and the body), wall-clock like the catalog client's I/O time-outs. Default 30 s. */
  timeoutMs?: number;
  /** Redirects followed, each to an allowed URL; 0 refuses any redirect. Default 3. */
  maxRedirects?: number;
  /** The HTTP function (default the global `fetch`). */
  fetch?: typeof globalThis.fetch;
}

/** Defaults: 20 MiB (the catalog object store's own cap in the sandbox; Shopify images are smaller), 30 s, 3 redirects. */
export const DEFAULT_IMAGE_FETCH_LIMITS = {
  maxBytes: 20 * 1024 * 1024,
  timeoutMs: 30_000,
  maxRedirects: 3,
} as const;

/** Bytes that passed every check, ready to upload. */
export interface FetchedImage {
  /** The URL asked for. */
  url: string;
  /** The URL the bytes came from (after allowed redirects). */
  finalUrl: string;
  bytes: Buffer;
  format: ImageMediaType;
  extension: ImageExtension;
  /** SHA-256 of the bytes, lower-case hex: the image map's content hash. */
  contentHash: string;
  size: number;
}

const REDIRECTS = new Set([301, 302, 303, 307, 308]);

/**
 * Fetches an image URL that came from webhook or API data without letting it reach anything but
 * the allowed CDN hosts: the URL and every redirect target are checked before any request is
 * made, the size is capped while streaming, the whole fetch is time-limited, and the bytes must
 * be an image format the catalog accepts. Every failure is a `MediaError` (retryable or not).
 */
export class SafeImageFetcher {
  private readonly allowlist: readonly AllowedSource[];
  private readonly maxBytes: number;
  private readonly timeoutMs: number;
  private readonly maxRedirects: number;
  private readonly http: typeof globalThis.fetch;

  constructor(options: ImageFetchOptions) {
    this.allowlist = options.allowlist;
    this.maxBytes = options.maxBytes ?? DEFAULT_IMAGE_FETCH_LIMITS.maxBytes;
    this.timeoutMs = options.timeoutMs ?? DEFAULT_IMAGE_FETCH_LIMITS.timeoutMs;
    this.maxRedirects = options.maxRedirects ?? DEFAULT_IMAGE_FETCH_LIMITS.maxRedirects;
    this.http = options.fetch ?? globalThis.fetch;
  }

  /** Whether a URL would be requested at all (no request is made). */
  allows(url: string): boolean {
    const parsed = URL.parse(url);
    return parsed !== null && isAllowedUrl(parsed, this.allowlist);
  }

  async fetch(url: string): Promise<FetchedImage> {
    let current = this.checked(url, MediaErrorCode.FORBIDDEN_HOST);
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(), this.timeoutMs);
    try {
      for (let hop = 0; ; hop++) {
        const response = await this.request(current, controller.signal);
        if (REDIRECTS.has(response.status)) {
          await response.body?.cancel().catch(() => {});
          current = this.redirectTarget(current, response, hop);
          continue;
        }
        if (response.status < 200 || response.status > 299) {
          await response.body?.cancel().catch(() => {});
          throw statusError(response.status, current);
        }
        const bytes = await this.readCapped(response, current, controller.signal);
        const format = sniffImageFormat(bytes);
        if (!format) {
          throw new MediaError({
            code: MediaErrorCode.NOT_AN_IMAGE,
            message: `${describeUrl(current.href)} is not an image the catalog accepts (${bytes.length} bytes, labelled ${response.headers.get('content-type') ?? 'without a type'})`,
            details: { size: bytes.length, contentType: response.headers.get('content-type') },
          });
        }
        return {
          url,
          finalUrl: current.href,
          bytes,
          format,
          extension: extensionOf(format),
          contentHash: createHash('sha256').update(bytes).digest('hex'),
          size: bytes.length,
        };
      }
    } finally {
      clearTimeout(timer);
    }
  }

  private checked(url: string, refusal: MediaErrorCode): URL {
    const parsed = URL.parse(url);
    if (!parsed || parsed.username || parsed.password) {
      throw new MediaError({
        code: MediaErrorCode.INVALID_URL,
        message: `not a fetchable image URL: ${describeUrl(url)}`,
      });
    }
    if (!isAllowedUrl(parsed, this.allowlist)) {
      throw new MediaError({
        code: refusal,
        message: `${describeUrl(url)} is not on an allowed image host; not fetched`,
        details: { host: parsed.host },
      });
    }
    return parsed;
  }

  private redirectTarget(from: URL, response: Response, hop: number): URL {
    const location = response.headers.get('location');
    if (hop >= this.maxRedirects || !location) {
      throw new MediaError({
        code: MediaErrorCode.REDIRECT_REFUSED,
        message: `${describeUrl(from.href)} redirects ${location ? `more than ${this.maxRedirects} times` : 'without a target'}`,
        details: { status: response.status },
      });
    }
    const target = URL.parse(location, from.href);
    if (!target) {
      throw new MediaError({
        code: MediaErrorCode.REDIRECT_REFUSED,
        message: `${describeUrl(from.href)} redirects to an invalid URL`,
      });
    }
    return this.checked(target.href, MediaErrorCode.REDIRECT_REFUSED);
  }

  private async request(url: URL, signal: AbortSignal): Promise<Response> {
    try {
      return await this.http(url.href, {
        redirect: 'manual',
        signal,
        headers: { accept: 'image/*', 'user-agent': 'catalog-connector' },
      });
    } catch (cause) {
      throw transportError(cause, signal, url);
    }
  }

  private async readCapped(response: Response, url: URL, signal: AbortSignal): Promise<Buffer> {
    const declared = Number(response.headers.get('content-length') ?? Number.NaN);
    if (Number.isFinite(declared) && declared > this.maxBytes) {
      await response.body?.cancel().catch(() => {});
      throw this.tooLarge(url, declared);
    }
    if (!response.body) return Buffer.alloc(0);
    const reader = response.body.getReader();
    const chunks: Uint8Array[] = [];
    let total = 0;
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        total += value.byteLength;
        if (total > this.maxBytes) {
          await reader.cancel().catch(() => {});
          throw this.tooLarge(url, total);
        }
        chunks.push(value);
      }
    } catch (cause) {
      if (cause instanceof MediaError) throw cause;
      throw transportError(cause, signal, url);
    }
    return Buffer.concat(chunks, total);
  }

  private tooLarge(url: URL, size: number): MediaError {
    return new MediaError({
      code: MediaErrorCode.TOO_LARGE,
      message: `${describeUrl(url.href)} is larger than ${this.maxBytes} bytes; not read further`,
      details: { size, maxBytes: this.maxBytes },
    });
  }
}

function statusError(status: number, url: URL): MediaError {
  const where = describeUrl(url.href);
  if (status === 404 || status === 410)
    return new MediaError({
      code: MediaErrorCode.NOT_FOUND,
      message: `${where} answered ${status}`,
      details: { status },
    });
  if (status >= 500 || status === 408 || status === 429)
    return new MediaError({
      code: MediaErrorCode.SERVER_ERROR,
      message: `${where} answered ${status}`,
      details: { status },
    });
  return new MediaError({
    code: MediaErrorCode.HTTP_ERROR,
    message: `${where} answered ${status}`,
    details: { status },
  });
}

function transportError(cause: unknown, signal: AbortSignal, url: URL): MediaError {
  const where = describeUrl(url.href);
  if (signal.aborted)
    return new MediaError({
      code: MediaErrorCode.TIMEOUT,
      message: `${where} did not answer in time`,
      cause,
    });
  const code = causeCode(cause);
  return new MediaError({
    code: MediaErrorCode.NETWORK_ERROR,
    message: `${where} could not be reached${code ? ` (${code})` : ''}`,
    details: code ? { cause: code } : {},
    cause,
  });
}

function causeCode(error: unknown): string | undefined {
  const inner = error instanceof Error && error.cause !== undefined ? error.cause : error;
  if (typeof inner === 'object' && inner !== null && 'code' in inner && typeof inner.code === 'string')
    return inner.code;
  return undefined;
}
