import { CatalogLimits } from '#lib/catalog-contract';
import { CatalogApiError } from '../http/catalog-api.error.js';
import { type ImageExtension, imageExtensionOf } from './image-format.js';

export interface PrepareRequest {
  fileName: string;
  extension: ImageExtension;
  skuIds: string[];
  addToMediaGallery: boolean;
}

const FILE_NAME_MAX = 255;

/**
 * Reads the body of POST /v1/upload/prepare. `skuIds` and `addToMediaGallery` are optional
 * (the spec does not say; README gap table): they default to none and false.
 */
export function parsePrepareBody(body: unknown): PrepareRequest {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw CatalogApiError.validation('The body must be {"fileName", "skuIds", "addToMediaGallery"}.');
  }
  const input = body as Record<string, unknown>;
  const { fileName, skuIds, addToMediaGallery } = input;
  if (typeof fileName !== 'string' || fileName.trim() === '' || fileName.length > FILE_NAME_MAX) {
    throw CatalogApiError.validation(
      `"fileName" must be a non-empty string of at most ${FILE_NAME_MAX} characters.`,
      {
        field: 'fileName',
      },
    );
  }
  const extension = imageExtensionOf(fileName);
  if (extension === null) {
    throw CatalogApiError.validation(
      '"fileName" must end in .jpg, .jpeg, .png, .gif, .webp, .bmp or .tiff.',
      {
        field: 'fileName',
        received: fileName,
      },
    );
  }
  if (addToMediaGallery !== undefined && typeof addToMediaGallery !== 'boolean') {
    throw CatalogApiError.validation('"addToMediaGallery" must be a boolean.', {
      field: 'addToMediaGallery',
    });
  }
  return { fileName, extension, skuIds: parseSkuIds(skuIds), addToMediaGallery: addToMediaGallery ?? false };
}

function parseSkuIds(value: unknown): string[] {
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value) || value.some((v) => typeof v !== 'string')) {
    throw CatalogApiError.validation('"skuIds" must be an array of skuId strings.', { field: 'skuIds' });
  }
  const skuIds = value as string[];
  if (skuIds.length > CatalogLimits.UPLOAD_SKU_IDS_MAX) {
    throw CatalogApiError.validation(`"skuIds" holds at most ${CatalogLimits.UPLOAD_SKU_IDS_MAX} ids.`, {
      field: 'skuIds',
      requested: skuIds.length,
      max: CatalogLimits.UPLOAD_SKU_IDS_MAX,
    });
  }
  const repeated = skuIds.filter((s, i) => skuIds.indexOf(s) !== i);
  if (repeated.length > 0) {
    throw CatalogApiError.validation('"skuIds" must be unique.', {
      field: 'skuIds',
      repeated: [...new Set(repeated)],
    });
  }
  return [...skuIds];
}

/** The tracked name: the given base name made URL-safe, with the uploadId to make it unique. */
export function trackedFileName(given: string, extension: ImageExtension, uploadId: string): string {
  const name = given.split(/[\\/]/).pop() ?? '';
  const base = name.slice(0, Math.max(0, name.lastIndexOf('.')));
  const safe = base
    .toLowerCase()
    .replace(/[^a-z0-9._-]+/g, '-')
    .replace(/^[-.]+|[-.]+$/g, '')
    .slice(0, 100);
  return `${safe || 'image'}-${uploadId.toLowerCase()}.${extension}`;
}
