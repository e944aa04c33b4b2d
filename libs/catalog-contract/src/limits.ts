/** Limits stated by the spec's Limits table. */
export const CatalogLimits = {
  MEDIA_PER_PRODUCT: 100,
  MEDIA_FOR_AI_VISION: 4,
  VARIANTS_PER_PARENT: 200,
  ACTIVE_API_KEYS: 5,
  SEARCH_PAGE_SIZE_MAX: 500,
  UPLOAD_SKU_IDS_MAX: 100,
  UPLOAD_URL_TTL_SECONDS: 900,
  SHORT_TEXT_LENGTH: 255,
  REQUESTS_PER_SECOND: 4,
  RETRY_AFTER_429_MIN_MS: 2_000,
} as const;

/** Recommended client time-outs (spec: Limits). */
export const CatalogTimeouts = {
  READ_MS: 30_000,
  WRITE_MS: 60_000,
  OBJECT_STORE_UPLOAD_MS: 60_000,
} as const;

/** skuId, taskId and image ids: two letters followed by 8 digits. */
export const PLATFORM_ID_PATTERN = /^[A-Z]{2}\d{8}$/;

export const IMAGE_EXTENSIONS = ['jpg', 'jpeg', 'png', 'gif', 'webp', 'bmp', 'tiff'] as const;
