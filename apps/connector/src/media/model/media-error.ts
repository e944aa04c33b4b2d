/**
 * Why one image (or one record's gallery) could not be synced. Each code is either worth
 * retrying later (the same work may succeed) or permanent (it needs a change in Shopify or in
 * the configuration): `MEDIA_ERROR_RETRYABLE` is the one table that says which.
 */
export const MediaErrorCode = {
  /** The URL is not on an allowed CDN host (or scheme, port, path): never requested. */
  FORBIDDEN_HOST: 'forbidden_host',
  /** The URL cannot be parsed, or carries credentials. */
  INVALID_URL: 'invalid_url',
  /** A redirect to a host outside the allowlist, too many redirects, or one without a target. */
  REDIRECT_REFUSED: 'redirect_refused',
  /** The CDN answered 404 or 410. */
  NOT_FOUND: 'not_found',
  /** The CDN answered another 4xx (401, 403, ...). */
  HTTP_ERROR: 'http_error',
  /** The CDN answered 5xx, 408 or 429. */
  SERVER_ERROR: 'server_error',
  /** No complete answer within the time limit. */
  TIMEOUT: 'timeout',
  /** Connection refused, reset, DNS failure. */
  NETWORK_ERROR: 'network_error',
  /** More bytes than the size cap (announced or streamed). */
  TOO_LARGE: 'too_large',
  /** The bytes are none of the formats the catalog accepts (magic numbers). */
  NOT_AN_IMAGE: 'not_an_image',
  /** Shopify has no URL for the image yet (still processing on Shopify's side). */
  IMAGE_NOT_READY: 'image_not_ready',
  /** The catalog's upload URL expired on every prepare the client tried. */
  UPLOAD_URL_EXPIRED: 'upload_url_expired',
  /** The catalog was still processing the upload when the bound ran out. */
  UPLOAD_PROCESSING_TIMEOUT: 'upload_processing_timeout',
  /** The object store refused the bytes (wrong type, too large, invalid image). */
  UPLOAD_REFUSED: 'upload_refused',
  /** A catalog call failed in a way that may pass later (5xx, time-out, 429, breaker open). */
  CATALOG_UNAVAILABLE: 'catalog_unavailable',
  /** The catalog refused a call (4xx other than 429). */
  CATALOG_REJECTED: 'catalog_rejected',
} as const;
export type MediaErrorCode = (typeof MediaErrorCode)[keyof typeof MediaErrorCode];

/** Whether each failure may pass when the same work is tried again later. */
export const MEDIA_ERROR_RETRYABLE: Readonly<Record<MediaErrorCode, boolean>> = {
  forbidden_host: false,
  invalid_url: false,
  redirect_refused: false,
  not_found: false,
  http_error: false,
  server_error: true,
  timeout: true,
  network_error: true,
  too_large: false,
  not_an_image: false,
  image_not_ready: true,
  upload_url_expired: true,
  upload_processing_timeout: true,
  upload_refused: false,
  catalog_unavailable: true,
  catalog_rejected: false,
};

export interface MediaErrorInit {
  code: MediaErrorCode;
  message: string;
  /** Overrides the table (e.g. a catalog error's own verdict). */
  retryable?: boolean;
  /** Plain facts for the failures table: status, host, sizes, uploadId. Never headers or keys. */
  details?: Record<string, string | number | boolean | null>;
  cause?: unknown;
}

/**
 * The media feature's one error type: what the failures table records (`code`, `message`,
 * `retryable`, `details`) for an image or a gallery. Messages name hosts and paths, never query
 * strings (pre-signed URLs carry signatures there).
 */
export class MediaError extends Error {
  readonly code: MediaErrorCode;
  readonly retryable: boolean;
  readonly details: Record<string, string | number | boolean | null>;

  constructor(init: MediaErrorInit) {
    super(init.message, init.cause === undefined ? undefined : { cause: init.cause });
    this.name = 'MediaError';
    this.code = init.code;
    this.retryable = init.retryable ?? MEDIA_ERROR_RETRYABLE[init.code];
    this.details = init.details ?? {};
  }

  toJSON(): { code: MediaErrorCode; message: string; retryable: boolean; details: MediaError['details'] } {
    return { code: this.code, message: this.message, retryable: this.retryable, details: this.details };
  }
}

/** Type guard for `MediaError`. */
export function isMediaError(error: unknown): error is MediaError {
  return error instanceof MediaError;
}

/** A URL for messages and logs: scheme, host and path, without query or credentials. */
export function describeUrl(url: string): string {
  try {
    const parsed = new URL(url);
    return `${parsed.protocol}//${parsed.host}${parsed.pathname}`;
  } catch {
    return '(invalid url)';
  }
}
