import type { UploadOptions } from '#lib/catalog-client';
import type { EnvReader } from '#lib/config';
import { MEDIA_UPLOAD_OPTIONS } from './media-uploads.js';

/** Product images into the catalog (docs/media.md, "Media"). */
export interface MediaConfig {
  /** Product images into the catalog's `media` gallery; off: no media job is enqueued. */
  enabled: boolean;
  /**
   * Where image bytes may be fetched from (hosts, `host/path-prefix/`, `*.domain`, or origins);
   * null: each shop's Shopify CDN hosts (`cdn.shopify.com`, `<shop>/cdn/`).
   */
  allowedHosts: string[] | null;
  /** `inherit`: variants inherit the product's gallery; `own-image`: a variant with an image gets its own. */
  variantGalleries: 'inherit' | 'own-image';
  concurrency: number;
  attempts: number;
  /** First retry delay of a failed media job; doubles at each attempt. */
  backoffMs: number;
  /** A media job waits this long after the sync, so a burst of syncs becomes one run. */
  delayMs: number;
  /** Wait before running again a product whose images may still come (record not created, retryable image). */
  retryLaterMs: number;
  /** Runs again at most this many times for such images; then they land in the failures table. */
  retryLaterMax: number;
  /** The catalog client's upload helper (status polls: first, then backing off, and the bound). */
  uploads: UploadOptions;
}

/** The `CONNECTOR_MEDIA_*` variables. */
export function readMedia(read: EnvReader): MediaConfig {
  return {
    enabled: read.bool('CONNECTOR_MEDIA_ENABLED', true),
    allowedHosts: readList(read.optionalString('CONNECTOR_MEDIA_ALLOWED_HOSTS')),
    variantGalleries: read.oneOf(
      'CONNECTOR_MEDIA_VARIANT_GALLERIES',
      ['inherit', 'own-image'] as const,
      'inherit',
    ),
    concurrency: read.int('CONNECTOR_MEDIA_CONCURRENCY', 2, { min: 1, max: 50 }),
    attempts: read.int('CONNECTOR_MEDIA_ATTEMPTS', 5, { min: 1, max: 100 }),
    backoffMs: read.int('CONNECTOR_MEDIA_BACKOFF_MS', 30_000, { min: 1 }),
    delayMs: read.int('CONNECTOR_MEDIA_DELAY_MS', 5_000, { min: 0 }),
    retryLaterMs: read.int('CONNECTOR_MEDIA_RETRY_LATER_MS', 120_000, { min: 1 }),
    retryLaterMax: read.int('CONNECTOR_MEDIA_RETRY_LATER_MAX', 10, { min: 0, max: 1_000 }),
    uploads: {
      ...MEDIA_UPLOAD_OPTIONS,
      firstPollDelayMs: read.int(
        'CONNECTOR_MEDIA_FIRST_POLL_MS',
        MEDIA_UPLOAD_OPTIONS.firstPollDelayMs ?? 40_000,
        {
          min: 0,
        },
      ),
      pollDelayMs: read.int('CONNECTOR_MEDIA_POLL_MS', MEDIA_UPLOAD_OPTIONS.pollDelayMs ?? 10_000, {
        min: 1,
      }),
      maxProcessingMs: read.int(
        'CONNECTOR_MEDIA_MAX_PROCESSING_MS',
        MEDIA_UPLOAD_OPTIONS.maxProcessingMs ?? 600_000,
        { min: 1 },
      ),
    },
  };
}

/** A comma-separated list (blanks dropped); null when unset or empty. */
function readList(raw: string | undefined): string[] | null {
  const items = (raw ?? '')
    .split(',')
    .map((item) => item.trim())
    .filter((item) => item !== '');
  return items.length > 0 ? items : null;
}
