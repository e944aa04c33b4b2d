import type { CanonicalMedia } from '../../product-sync/plan/index.js';
import type { FetchedImage } from '../fetch/safe-image-fetcher.js';
import type { ImageMapRow } from '../model/media-store.js';

/** An image whose bytes must be fetched: new to the map, or Shopify hands out another URL. */
export interface ImageToFetch {
  mediaId: string;
  url: string;
  /** The map's row for this media id (its older bytes), if any. */
  previous: ImageMapRow | null;
}

/** What to do with each needed image before any bytes move. */
export interface ImageWork {
  /** Catalog images known without fetching: same media id, same URL as the map holds. */
  known: Map<string, string>;
  toFetch: ImageToFetch[];
  /** Images Shopify has no URL for yet (still processing there). */
  notReady: Array<{ mediaId: string; previous: ImageMapRow | null }>;
}

/**
 * Splits the needed images into known ones (zero fetches, zero uploads), ones to fetch, and ones
 * Shopify is still processing. Pure. While Shopify hands out the same URL for a media id, its
 * bytes are taken as unchanged (Shopify's CDN URLs carry a version, `?v=`, that changes with the
 * file).
 */
export function planImageWork(
  images: readonly CanonicalMedia[],
  needed: ReadonlySet<string>,
  rows: readonly ImageMapRow[],
): ImageWork {
  const byMediaId = new Map(rows.map((row) => [row.shopifyMediaId, row]));
  const work: ImageWork = { known: new Map(), toFetch: [], notReady: [] };
  const seen = new Set<string>();
  for (const image of images) {
    if (!needed.has(image.id) || seen.has(image.id)) continue;
    seen.add(image.id);
    const previous = byMediaId.get(image.id) ?? null;
    if (image.url === null) work.notReady.push({ mediaId: image.id, previous });
    else if (previous && previous.sourceUrl === image.url) work.known.set(image.id, previous.fileId);
    else work.toFetch.push({ mediaId: image.id, url: image.url, previous });
  }
  return work;
}

/** One upload: bytes the shop's map does not know yet, and every media id that has them. */
export interface UploadGroup {
  contentHash: string;
  /** The bytes to upload (the first image that had them). */
  image: FetchedImage;
  /** Every media id with these bytes, each with its own fetch (its own URL for the map). */
  members: Array<{ mediaId: string; image: FetchedImage }>;
}

/**
 * After fetching: bytes whose content hash the shop's map already knows reuse that `fileId`
 * (rows to write, zero uploads); the others are grouped by hash, one upload per distinct bytes,
 * so the same bytes under two Shopify ids share one `fileId`. Pure.
 */
export function planUploads(
  shop: string,
  fetched: ReadonlyArray<{ mediaId: string; image: FetchedImage }>,
  rowsWithHashes: readonly ImageMapRow[],
): { reused: ImageMapRow[]; uploads: UploadGroup[] } {
  const knownHashes = new Map(rowsWithHashes.map((row) => [row.contentHash, row.fileId]));
  const reused: ImageMapRow[] = [];
  const groups = new Map<string, UploadGroup>();
  for (const { mediaId, image } of fetched) {
    const fileId = knownHashes.get(image.contentHash);
    if (fileId !== undefined) {
      reused.push(mapRow(shop, mediaId, image, fileId));
      continue;
    }
    const group = groups.get(image.contentHash);
    if (group) group.members.push({ mediaId, image });
    else
      groups.set(image.contentHash, { contentHash: image.contentHash, image, members: [{ mediaId, image }] });
  }
  return { reused, uploads: [...groups.values()] };
}

/** The map row of a media id whose bytes (fetched from `image.url`) are the catalog's `fileId`. */
export function mapRow(shop: string, mediaId: string, image: FetchedImage, fileId: string): ImageMapRow {
  return {
    shop,
    shopifyMediaId: mediaId,
    sourceUrl: image.url,
    contentHash: image.contentHash,
    fileId,
    byteSize: image.size,
    format: image.format,
  };
}
