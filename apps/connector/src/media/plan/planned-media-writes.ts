import type { PlannedWrite } from '../../product-sync/planned/planned-writes.repository.js';
import type { GalleryState, ImageMapRow } from '../model/media-store.js';
import type { ProductImages } from '../model/product-images.js';
import {
  desiredGalleries,
  type GallerySettings,
  type MediaRecord,
  neededMediaIds,
} from './desired-galleries.js';
import { planGalleryWrites } from './plan-gallery-writes.js';
import { planImageWork } from './plan-image-work.js';

/** Stands for a record's skuId in a planned path while the record is itself only planned. */
export const PLANNED_SKU_ID = '{skuId}';

/** What the media step knows of a product before it would fetch or send anything. */
export interface MediaPlanInput {
  product: ProductImages;
  /** The product's catalog records; a record not created yet (null skuId) is planned with `{skuId}`. */
  records: readonly MediaRecord[];
  /** The galleries the connector wrote last (by skuId). */
  written: readonly GalleryState[];
  /** The image map's rows of the product's images. */
  mapRows: readonly ImageMapRow[];
  settings?: GallerySettings;
}

/**
 * Why: a shop in `shadow` (issue 31) sends no image to the catalog; the media step plans as live
 * would (the same gallery and image-work planning) and each call becomes a planned write: one
 * upload per image the image map does not know (its `fileId` is then `upload:<media id>`, as
 * none exists yet), then one `media` PATCH per record whose gallery would change, with the
 * gallery before and after. Bytes are not fetched, so two images with the same bytes count as two
 * uploads (live would make one). Pure.
 */
export function plannedMediaWrites(input: MediaPlanInput): PlannedWrite[] {
  const records = input.records.map((r) => ({ ...r, skuId: r.skuId ?? PLANNED_SKU_ID }));
  const desired = desiredGalleries({
    product: input.product,
    records,
    written: input.written,
    settings: input.settings,
  });
  const work = planImageWork(input.product.images, neededMediaIds(desired.galleries), input.mapRows);
  const fileIds = new Map(work.known);
  const writes: PlannedWrite[] = [];
  for (const { mediaId, previous } of work.notReady) if (previous) fileIds.set(mediaId, previous.fileId);
  for (const { mediaId, url, previous } of work.toFetch) {
    const planned = `upload:${mediaId}`;
    fileIds.set(mediaId, planned);
    writes.push({
      kind: 'uploadImage',
      method: 'POST',
      path: '/v1/upload/prepare',
      supplierSku: null,
      body: { shopifyMediaId: mediaId, sourceUrl: url },
      before: previous ? { shopifyMediaId: mediaId, fileId: previous.fileId } : null,
      after: { shopifyMediaId: mediaId, fileId: planned },
    });
  }
  const plan = planGalleryWrites({ galleries: desired.galleries, fileIds, written: input.written });
  for (const write of plan.writes) {
    const last = input.written.find((state) => state.skuId === write.record.skuId);
    const variant = write.method === 'updateVariant';
    writes.push({
      kind: write.method,
      method: 'PATCH',
      path: `/v1/${variant ? 'variants' : 'products'}/${write.record.skuId}`,
      supplierSku: write.record.supplierSku,
      body: write.body as unknown as Record<string, unknown>,
      before: { media: last?.media ?? [] },
      after: { media: write.media },
    });
  }
  return writes;
}
