import {
  isCatalogClientError,
  type Priority,
  type UploadImageInput,
  type UploadResult,
} from '#lib/catalog-client';
import type { FetchedImage } from '../fetch/safe-image-fetcher.js';
import { catalogFailure } from '../model/catalog-failure.js';
import { MediaError, MediaErrorCode } from '../model/media-error.js';

/**
 * The catalog budget priority of every media call (prepare, status polls, the gallery's read and
 * PATCH): `bulk`, below the attribute sync's `normal`, so a waiting attribute write always goes
 * first (the client serves `interactive`, then `normal`, then `bulk`).
 */
export const MEDIA_PRIORITY: Priority = 'bulk';

/** Upload settings of the connector's catalog client (defaults of `config.media.uploads`). */
export { MEDIA_UPLOAD_OPTIONS } from '../../platform/config/media-uploads.js';

/** The part of `CatalogClient` the upload step uses. */
export interface MediaUploader {
  uploadImage(input: UploadImageInput): Promise<UploadResult>;
}

/** A finished upload: the catalog image and what it cost. */
export interface UploadOutcome {
  fileId: string;
  fileName: string;
  prepares: number;
  polls: number;
}

/**
 * Uploads fetched bytes through the client's helper: prepare (at `bulk` priority), PUT, status
 * polls until the `fileId`. No `skuIds` and no `addToMediaGallery`: the gallery is written whole,
 * in order, by one PATCH once the images are ready (appending as processing ends would race it).
 * The bytes go as a buffer, so an expired URL can be prepared again and the PUT repeated.
 * Failures are `MediaError`s.
 */
export async function uploadFetchedImage(
  uploader: MediaUploader,
  image: FetchedImage,
): Promise<UploadOutcome> {
  const fileName = uploadFileName(image);
  try {
    const result = await uploader.uploadImage({
      fileName,
      data: image.bytes,
      contentType: image.format,
      priority: MEDIA_PRIORITY,
    });
    return { fileId: result.fileId, fileName, prepares: result.prepares, polls: result.polls };
  } catch (error) {
    throw uploadError(error, fileName);
  }
}

/**
 * The upload's file name: the Shopify file's base name (URL-safe, at most 60 characters), a
 * short content hash, and the extension of the format the bytes really are.
 */
export function uploadFileName(image: FetchedImage): string {
  const last = (URL.parse(image.url)?.pathname ?? '').split('/').pop() ?? '';
  const base =
    decodeSafely(last)
      .replace(/\.[A-Za-z0-9]{1,5}$/, '')
      .replace(/[^A-Za-z0-9_-]+/g, '-')
      .replace(/^-+|-+$/g, '')
      .slice(0, 60) || 'image';
  return `${base}-${image.contentHash.slice(0, 12)}.${image.extension}`;
}

/** A catalog client failure of an upload as a `MediaError` (anything else is a bug: rethrown). */
export function uploadError(error: unknown, fileName: string): unknown {
  if (!isCatalogClientError(error)) return error;
  const details = { fileName, catalogCode: error.code, status: error.status };
  if (error.code === 'upload_processing_timeout') {
    return new MediaError({
      code: MediaErrorCode.UPLOAD_PROCESSING_TIMEOUT,
      message: `${fileName}: the catalog was still processing the upload when the bound ran out`,
      details: {
        ...details,
        uploadId: stringOrNull(error.details?.uploadId),
        polls: numberOrNull(error.details?.polls),
      },
      cause: error,
    });
  }
  if (error.code === 'upload_failed') {
    // The helper prepares again on an expired URL; this message (status unknown) means every URL expired.
    if (/expired/i.test(error.message) && error.status === null) {
      return new MediaError({
        code: MediaErrorCode.UPLOAD_URL_EXPIRED,
        message: `${fileName}: the upload URL expired on every prepare`,
        details,
        cause: error,
      });
    }
    if (
      error.status !== null &&
      error.status >= 400 &&
      error.status < 500 &&
      error.status !== 403 &&
      error.status !== 410
    ) {
      return new MediaError({
        code: MediaErrorCode.UPLOAD_REFUSED,
        message: `${fileName}: the object store refused the bytes (HTTP ${error.status})`,
        details,
        cause: error,
      });
    }
  }
  return catalogFailure(error, `${fileName}: upload failed`);
}

function decodeSafely(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

function stringOrNull(value: unknown): string | null {
  return typeof value === 'string' ? value : null;
}

function numberOrNull(value: unknown): number | null {
  return typeof value === 'number' ? value : null;
}
