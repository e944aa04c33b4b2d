import type { UploadOptions } from '#lib/catalog-client';

/**
 * Upload settings of the connector's `CatalogClient` (`uploads`), the defaults of
 * `config.media.uploads`: processing takes 30 s to 2 min, so the first status poll waits 40 s,
 * then 10 s doubling up to 60 s (polls at 40, 50, 70, 110, 170 s...): 1 to 4 polls per image;
 * past 10 minutes the upload fails (`upload_processing_timeout`). Up to 3 prepares when URLs
 * expire. Here, below the catalog clients and the media stage, so both read one value.
 */
export const MEDIA_UPLOAD_OPTIONS: Readonly<UploadOptions> = {
  firstPollDelayMs: 40_000,
  pollDelayMs: 10_000,
  pollBackoffFactor: 2,
  maxPollDelayMs: 60_000,
  maxProcessingMs: 600_000,
  maxPrepares: 3,
};
