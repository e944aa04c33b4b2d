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
export type ImageExtension = (typeof IMAGE_EXTENSIONS)[number];

/** The media type of each accepted image extension (the object-store PUT's Content-Type). */
export const IMAGE_MEDIA_TYPES = {
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  png: 'image/png',
  gif: 'image/gif',
  webp: 'image/webp',
  bmp: 'image/bmp',
  tiff: 'image/tiff',
} as const satisfies Record<ImageExtension, string>;
export type ImageMediaType = (typeof IMAGE_MEDIA_TYPES)[ImageExtension];

/** The spec's image extension of a file name (any case), or null. */
export function imageExtensionOf(fileName: string): ImageExtension | null {
  const dot = fileName.lastIndexOf('.');
  if (dot < 0) return null;
  const extension = fileName.slice(dot + 1).toLowerCase();
  return (IMAGE_EXTENSIONS as readonly string[]).includes(extension) ? (extension as ImageExtension) : null;
}
