import type { CanonicalMedia } from '../../product-sync/plan/index.js';
import type { GalleryState, ImageMapRow } from '../model/media-store.js';
import { desiredGalleries, type GallerySettings, type MediaRecord } from '../plan/desired-galleries.js';
import { planGalleryWrites } from '../plan/plan-gallery-writes.js';
import type { MediaStatus } from '../store/media-status.repository.js';

/** What is known after a product sync, to tell whether its media run would do anything. */
export interface MediaChangeInput {
  /** `gid://shopify/Product/<digits>` */
  productGid: string;
  /** The images the sync read (`CanonicalProduct.media`); undefined when it did not read them all. */
  images: readonly CanonicalMedia[] | undefined;
  /** The product's records (tombstoned ones left out; `skuId` only when live). */
  records: readonly MediaRecord[];
  /** The galleries the connector wrote last to those records. */
  written: readonly GalleryState[];
  /** The image map's rows of the images' media ids. */
  known: readonly ImageMapRow[];
  /** The product's last media run; null when none ran. */
  lastRun: Pick<MediaStatus, 'imageFailures' | 'notes'> | null;
  settings: GallerySettings;
}

/**
 * Why: the media job reads the product's images from Shopify again (about 500 cost points) after
 * every sync, although most updates (a title, a price) change no image. From the images the sync
 * already read and what the media store recorded, this says why a media run is needed, or null
 * when it would read, upload and write nothing: every image is mapped from the URL Shopify shows
 * now, every record exists, the last run left nothing to retry, and each record's gallery is the
 * one last written. When in doubt (images not read, a variant's own images unknown), a run is
 * needed. Pure.
 */
export function mediaRunNeeded(input: MediaChangeInput): string | null {
  const { images, records, lastRun } = input;
  if (images === undefined) return 'images not read with the product';
  if (lastRun === null) return 'no media run yet';
  if (lastRun.imageFailures.length > 0) return 'images failed at the last run';
  if (lastRun.notes.some((note) => note.code === 'record-not-created')) return 'records were missing';
  if (records.some((record) => record.skuId === null)) return 'a record is not created yet';
  if (input.settings.variantGalleries === 'own-image' && records.some((r) => r.kind === 'variant')) {
    return "variants' own images are not read with the product";
  }
  const urls = new Map(input.known.map((row) => [row.shopifyMediaId, row.sourceUrl]));
  for (const image of images) {
    if (image.url === null) return `${image.id} is still processing`;
    if (urls.get(image.id) !== image.url) return `${image.id} is new or changed`;
  }
  const desired = desiredGalleries({
    product: { productId: input.productGid, images: [...images], variantImages: [] },
    records,
    written: input.written,
    settings: input.settings,
  });
  if (desired.notes.some((note) => note.code === 'record-not-created')) return 'a record is not created yet';
  const plan = planGalleryWrites({
    galleries: desired.galleries,
    fileIds: new Map(input.known.map((row) => [row.shopifyMediaId, row.fileId])),
    written: input.written,
  });
  if (plan.writes.length > 0 || plan.inSync.length > 0) return 'a gallery changed';
  return null;
}
