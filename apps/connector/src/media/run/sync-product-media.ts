import type { CallOptions } from '#lib/catalog-client';
import type { ProductRecord, ProductWriteRequest } from '#lib/catalog-contract';
import type { Clock } from '#lib/clock';
import type { FetchedImage } from '../fetch/safe-image-fetcher.js';
import { catalogFailure } from '../model/catalog-failure.js';
import { MediaError, MediaErrorCode } from '../model/media-error.js';
import type { GalleryStateRepository, ImageMapRepository } from '../model/media-store.js';
import type { ProductImages } from '../model/product-images.js';
import {
  desiredGalleries,
  type GalleryNote,
  type GallerySettings,
  type MediaRecord,
  neededMediaIds,
} from '../plan/desired-galleries.js';
import { type CurrentGallery, type GalleryWrite, planGalleryWrites } from '../plan/plan-gallery-writes.js';
import { mapRow, planImageWork, planUploads } from '../plan/plan-image-work.js';
import { MEDIA_PRIORITY, type MediaUploader, uploadFetchedImage } from '../upload/upload-image.js';

/** The part of `CatalogClient` the media step uses. */
export interface MediaCatalogApi extends MediaUploader {
  getProduct(skuId: string, call?: CallOptions): Promise<ProductRecord>;
  getVariant(skuId: string, call?: CallOptions): Promise<ProductRecord>;
  updateProductBySkuId(skuId: string, body: ProductWriteRequest, call?: CallOptions): Promise<unknown>;
  updateVariant(skuId: string, body: ProductWriteRequest, call?: CallOptions): Promise<unknown>;
}

/** Where image bytes come from (`SafeImageFetcher`). */
export interface ImageSource {
  fetch(url: string): Promise<FetchedImage>;
}

export interface MediaSyncDeps {
  catalog: MediaCatalogApi;
  images: ImageSource;
  imageMap: ImageMapRepository;
  galleries: GalleryStateRepository;
  clock: Clock;
}

export interface MediaSyncInput {
  /** The shop's myshopify domain. */
  shop: string;
  product: ProductImages;
  /** The product's catalog records from the sku map (live ones). */
  records: readonly MediaRecord[];
  settings?: GallerySettings;
  /** Read a record's gallery before replacing it, to notice one the connector did not write last. Default true. */
  readBeforeReplace?: boolean;
  /** Uploads in flight at once (their status polls overlap). Default 3. */
  uploadConcurrency?: number;
}

/** An image that did not make it into the catalog this time, and why. */
export interface ImageFailure {
  mediaId: string;
  stage: 'fetch' | 'upload' | 'not-ready';
  error: MediaError;
}

/** A record whose gallery could not be read or written. */
export interface RecordFailure {
  supplierSku: string;
  skuId: string;
  error: MediaError;
}

export interface MediaSyncResult {
  /** Images whose bytes were fetched. */
  fetched: number;
  /** Fetched images whose bytes the map already had (no upload). */
  reused: number;
  uploads: Array<{
    contentHash: string;
    fileId: string;
    mediaIds: string[];
    prepares: number;
    polls: number;
  }>;
  /** The `media` PATCHes made. */
  writes: GalleryWrite[];
  notes: GalleryNote[];
  imageFailures: ImageFailure[];
  recordFailures: RecordFailure[];
  /** Whether running again later may finish what is missing (a retryable failure, or a record not created yet). */
  retryLater: boolean;
}

/**
 * One product's media step: the galleries its records should have, the images among them the
 * image map does not know (fetched safely, uploaded once per distinct bytes at `bulk` priority),
 * then one `media` PATCH per record whose gallery changed, in Shopify's order. An image that
 * fails is left out (or keeps its previous catalog image) and reported; it never stops the
 * others. Only bugs throw.
 */
export async function syncProductMedia(deps: MediaSyncDeps, input: MediaSyncInput): Promise<MediaSyncResult> {
  const { shop } = input;
  const skuIds = input.records.flatMap((r) => (r.skuId === null ? [] : [r.skuId]));
  const written = skuIds.length > 0 ? await deps.galleries.find(shop, skuIds) : [];
  const desired = desiredGalleries({
    product: input.product,
    records: input.records,
    written,
    settings: input.settings,
  });
  const result: MediaSyncResult = {
    fetched: 0,
    reused: 0,
    uploads: [],
    writes: [],
    notes: [...desired.notes],
    imageFailures: [],
    recordFailures: [],
    retryLater: false,
  };
  const needed = neededMediaIds(desired.galleries);
  const rows = needed.size > 0 ? await deps.imageMap.findByMediaIds(shop, [...needed]) : [];
  const work = planImageWork(input.product.images, needed, rows);
  const fileIds = new Map(work.known);
  const keepPrevious = (mediaId: string, previous: { fileId: string } | null) => {
    if (previous) fileIds.set(mediaId, previous.fileId); // the older picture beats a hole in the gallery
  };

  for (const { mediaId, previous } of work.notReady) {
    keepPrevious(mediaId, previous);
    if (!previous) {
      const error = new MediaError({
        code: MediaErrorCode.IMAGE_NOT_READY,
        message: `${mediaId} has no URL yet`,
      });
      result.imageFailures.push({ mediaId, stage: 'not-ready', error });
    }
  }

  const fetched: Array<{ mediaId: string; image: FetchedImage }> = [];
  await forEachConcurrently(work.toFetch, 4, async ({ mediaId, url, previous }) => {
    try {
      fetched.push({ mediaId, image: await deps.images.fetch(url) });
    } catch (error) {
      if (!(error instanceof MediaError)) throw error;
      result.imageFailures.push({ mediaId, stage: 'fetch', error });
      keepPrevious(mediaId, previous);
    }
  });
  result.fetched = fetched.length;

  const hashes = [...new Set(fetched.map((f) => f.image.contentHash))];
  const hashRows = hashes.length > 0 ? await deps.imageMap.findByContentHashes(shop, hashes) : [];
  const { reused, uploads } = planUploads(shop, fetched, hashRows);
  result.reused = reused.length;
  if (reused.length > 0) await deps.imageMap.upsert(reused);
  for (const row of reused) fileIds.set(row.shopifyMediaId, row.fileId);

  await forEachConcurrently(uploads, input.uploadConcurrency ?? 3, async (group) => {
    try {
      const outcome = await uploadFetchedImage(deps.catalog, group.image);
      await deps.imageMap.upsert(group.members.map((m) => mapRow(shop, m.mediaId, m.image, outcome.fileId)));
      for (const member of group.members) fileIds.set(member.mediaId, outcome.fileId);
      result.uploads.push({
        contentHash: group.contentHash,
        fileId: outcome.fileId,
        mediaIds: group.members.map((m) => m.mediaId),
        prepares: outcome.prepares,
        polls: outcome.polls,
      });
    } catch (error) {
      if (!(error instanceof MediaError)) throw error;
      for (const member of group.members) {
        result.imageFailures.push({ mediaId: member.mediaId, stage: 'upload', error });
        keepPrevious(member.mediaId, rows.find((r) => r.shopifyMediaId === member.mediaId) ?? null);
      }
    }
  });

  await writeGalleries(deps, input, { galleries: desired.galleries, fileIds, written }, result);
  result.retryLater =
    result.imageFailures.some((f) => f.error.retryable) ||
    result.recordFailures.some((f) => f.error.retryable) ||
    result.notes.some((n) => n.code === 'record-not-created');
  return result;
}

async function writeGalleries(
  deps: MediaSyncDeps,
  input: MediaSyncInput,
  planInput: Parameters<typeof planGalleryWrites>[0],
  result: MediaSyncResult,
): Promise<void> {
  let plan = planGalleryWrites(planInput);
  if (input.readBeforeReplace !== false && plan.writes.length > 0) {
    const current = new Map<string, CurrentGallery>();
    for (const write of plan.writes) {
      try {
        current.set(write.record.skuId, await readGallery(deps.catalog, write));
      } catch (error) {
        const failure = catalogFailure(error, `${write.record.supplierSku}: reading its gallery`);
        if (!(failure instanceof MediaError)) throw failure;
        result.recordFailures.push({
          supplierSku: write.record.supplierSku,
          skuId: write.record.skuId,
          error: failure,
        });
      }
    }
    const readable = planInput.galleries.filter(
      (g) => !result.recordFailures.some((f) => f.skuId === g.record.skuId),
    );
    plan = planGalleryWrites({ ...planInput, galleries: readable, current });
  }
  result.notes.push(...plan.notes);
  for (const { record, media } of plan.inSync)
    await deps.galleries.save({ shop: input.shop, skuId: record.skuId, media, writtenAt: deps.clock.now() });
  for (const write of plan.writes) {
    try {
      if (write.method === 'updateProductBySkuId')
        await deps.catalog.updateProductBySkuId(write.record.skuId, write.body, { priority: MEDIA_PRIORITY });
      else await deps.catalog.updateVariant(write.record.skuId, write.body, { priority: MEDIA_PRIORITY });
    } catch (error) {
      const failure = catalogFailure(error, `${write.record.supplierSku}: writing its gallery`);
      if (!(failure instanceof MediaError)) throw failure;
      result.recordFailures.push({
        supplierSku: write.record.supplierSku,
        skuId: write.record.skuId,
        error: failure,
      });
      continue;
    }
    await deps.galleries.save({
      shop: input.shop,
      skuId: write.record.skuId,
      media: write.media,
      writtenAt: deps.clock.now(),
    });
    result.writes.push(write);
  }
}

async function readGallery(catalog: MediaCatalogApi, write: GalleryWrite): Promise<CurrentGallery> {
  const { skuId } = write.record;
  const record =
    write.method === 'updateProductBySkuId'
      ? await catalog.getProduct(skuId, { priority: MEDIA_PRIORITY })
      : await catalog.getVariant(skuId, { priority: MEDIA_PRIORITY });
  const entry = record.attributes.find((attribute) => attribute.key === 'media');
  const media = Array.isArray(entry?.value) ? entry.value : [];
  return { media, inherited: entry?.inherited === true };
}

/** Runs `work` over `items` with at most `limit` at once; resolves when all have settled. */
async function forEachConcurrently<T>(items: readonly T[], limit: number, work: (item: T) => Promise<void>) {
  let next = 0;
  const lane = async () => {
    while (next < items.length) await work(items[next++] as T);
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, lane));
}
