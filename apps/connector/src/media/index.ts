// The media feature's import surface: safe image fetching, the product media read, the pure
// gallery planners, the upload step, and `syncProductMedia`, which a media job calls per product.

export {
  PRODUCT_MEDIA_OPERATION,
  PRODUCT_MEDIA_QUERY,
  VARIANT_MEDIA_OPERATION,
  VARIANT_MEDIA_QUERY,
} from '../clients/shopify/documents/product-media.query.js';
export { catalogFailure } from './catalog-failure.js';
export {
  type AllowedSource,
  isAllowedUrl,
  parseAllowedSource,
  parseAllowlist,
  SHOPIFY_CDN_HOSTS,
  shopifyCdnAllowlist,
} from './fetch/allowlist.js';
export { extensionOf, sniffImageFormat } from './fetch/image-format.js';
export {
  DEFAULT_IMAGE_FETCH_LIMITS,
  type FetchedImage,
  type ImageFetchOptions,
  SafeImageFetcher,
} from './fetch/safe-image-fetcher.js';
export { MediaModule, mediaModule } from './media.module.js';
export {
  describeUrl,
  isMediaError,
  MEDIA_ERROR_RETRYABLE,
  MediaError,
  MediaErrorCode,
  type MediaErrorInit,
} from './media-error.js';
export type {
  GalleryState,
  GalleryStateRepository,
  ImageMapRepository,
  ImageMapRow,
} from './media-store.js';
export {
  DEFAULT_GALLERY_SETTINGS,
  type DesiredGallery,
  desiredGalleries,
  type GalleryNote,
  type GallerySettings,
  type MediaRecord,
  neededMediaIds,
} from './plan/desired-galleries.js';
export {
  type CurrentGallery,
  type GalleryWrite,
  type GalleryWritePlan,
  planGalleryWrites,
} from './plan/plan-gallery-writes.js';
export {
  type ImageToFetch,
  type ImageWork,
  mapRow,
  planImageWork,
  planUploads,
  type UploadGroup,
} from './plan/plan-image-work.js';
export type { ProductImages, VariantImages } from './product-images.js';
export { MediaReadError, readProductMedia, readVariantMedia } from './read/product-media.reader.js';
export { MediaEnqueuer } from './run/media-enqueuer.js';
export type { StoredImageFailure } from './store/media-product-status.entity.js';
export { type MediaStatus, MediaStatusRepository } from './store/media-status.repository.js';
export type { SyncMediaOutcome } from './sync-media.job.js';
export {
  type ImageFailure,
  type ImageSource,
  type MediaCatalogApi,
  type MediaSyncDeps,
  type MediaSyncInput,
  type MediaSyncResult,
  type RecordFailure,
  syncProductMedia,
} from './sync-product-media.js';
export {
  MEDIA_PRIORITY,
  MEDIA_UPLOAD_OPTIONS,
  type MediaUploader,
  type UploadOutcome,
  uploadError,
  uploadFetchedImage,
  uploadFileName,
} from './upload/upload-image.js';
