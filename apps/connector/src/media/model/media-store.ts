/**
 * One row of the image map: a Shopify image of a shop and the catalog image made from its bytes.
 * Unique on (shop, shopifyMediaId); looked up by (shop, contentHash) too, so the same bytes under
 * two Shopify ids share one `fileId`.
 */
export interface ImageMapRow {
  /** The shop's myshopify domain. */
  shop: string;
  /** `gid://shopify/MediaImage/<digits>` */
  shopifyMediaId: string;
  /** The URL the bytes were fetched from: while Shopify hands out the same URL, the bytes are not fetched again. */
  sourceUrl: string;
  /** SHA-256 of the bytes, lower-case hex. */
  contentHash: string;
  /** The catalog image id (`fileId`, two letters and 8 digits). */
  fileId: string;
  byteSize: number;
  /** Media type of the bytes (`image/png`, ...). */
  format: string;
}

/**
 * The image map's persistence (a TypeORM repository in the app; in memory in tests). Writes
 * are upserts by (shop, shopifyMediaId), so a retried job never duplicates rows.
 */
export interface ImageMapRepository {
  /** The rows of these Shopify media ids in the shop (unknown ids have none). */
  findByMediaIds(shop: string, shopifyMediaIds: readonly string[]): Promise<ImageMapRow[]>;
  /** The rows, of any media id, holding one of these content hashes in the shop. */
  findByContentHashes(shop: string, contentHashes: readonly string[]): Promise<ImageMapRow[]>;
  /** Inserts, or replaces by (shop, shopifyMediaId). */
  upsert(rows: readonly ImageMapRow[]): Promise<void>;
}

/**
 * The gallery the connector last wrote to one catalog record (its `media` value), so an
 * unchanged gallery is not written again and a gallery changed on the catalog side is noticed.
 * Unique on (shop, skuId): a record created again has a new `skuId` and starts without one.
 */
export interface GalleryState {
  shop: string;
  skuId: string;
  /** The `fileId`s in gallery order. */
  media: string[];
  /** Epoch ms (the injected clock) of the write. */
  writtenAt: number;
}

/** Persistence of `GalleryState` (a TypeORM repository in the app; in memory in tests). */
export interface GalleryStateRepository {
  find(shop: string, skuIds: readonly string[]): Promise<GalleryState[]>;
  /** Inserts, or replaces by (shop, skuId). */
  save(state: GalleryState): Promise<void>;
}
