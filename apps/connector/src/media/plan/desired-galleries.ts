import { CatalogLimits } from '#lib/catalog-contract';
import { legacyIdOf, type RecordKind } from '../../product-sync/plan/index.js';
import type { GalleryState } from '../model/media-store.js';
import type { ProductImages } from '../model/product-images.js';

/** A catalog record of the product as the sku map holds it (a `StoredRecord` fits). */
export interface MediaRecord {
  kind: RecordKind;
  /** Null on the product's own record. */
  shopifyVariantId: string | null;
  supplierSku: string;
  /** Null while the record does not exist yet: its gallery waits for the attribute sync. */
  skuId: string | null;
}

/** How variants get images. */
export interface GallerySettings {
  /**
   * `inherit` (default): variants inherit the parent's gallery, as the catalog does by default.
   * `own-image`: a variant with an image of its own gets its own gallery (its images, then the
   * product's images no variant claims), which breaks the catalog's inheritance for it.
   */
  variantGalleries: 'inherit' | 'own-image';
}

export const DEFAULT_GALLERY_SETTINGS: GallerySettings = { variantGalleries: 'inherit' };

/** The Shopify images one record's gallery should show, before they are catalog images. */
export interface DesiredGallery {
  record: MediaRecord & { skuId: string };
  /** MediaImage gids in gallery order, at most 100. */
  mediaIds: string[];
  /**
   * `product`: the product's gallery. `variant-own`: a variant's own gallery. `variant-restore`:
   * a variant the connector gave its own gallery earlier, which should inherit now; the API
   * cannot restore inheritance (only the portal can), so it is set to the parent's gallery.
   */
  source: 'product' | 'variant-own' | 'variant-restore';
}

/** Something the product's media status should say; the media sync still goes on. */
export interface GalleryNote {
  code:
    | 'record-not-created'
    | 'gallery-truncated'
    | 'variant-inheritance-broken'
    | 'variant-inheritance-not-restorable'
    | 'replaced-foreign-gallery';
  message: string;
  supplierSku?: string;
  skuId?: string;
  /** For `replaced-foreign-gallery`: what the connector wrote last and what the catalog held. */
  lastWritten?: string[] | null;
  found?: string[];
}

export interface DesiredGalleriesInput {
  product: ProductImages;
  records: readonly MediaRecord[];
  /** The galleries the connector wrote last, for these records. */
  written: readonly GalleryState[];
  settings?: GallerySettings;
}

/**
 * Which Shopify images each catalog record's gallery should hold, in Shopify's order, at most
 * 100 (the catalog's limit per record). Pure. The product's own record (simple or parent) gets
 * every image; variants inherit it (no gallery of their own) unless the settings give a variant
 * with its own image its own gallery.
 */
export function desiredGalleries(input: DesiredGalleriesInput): {
  galleries: DesiredGallery[];
  notes: GalleryNote[];
} {
  const settings = input.settings ?? DEFAULT_GALLERY_SETTINGS;
  const notes: GalleryNote[] = [];
  const galleries: DesiredGallery[] = [];
  const allIds = input.product.images.map((image) => image.id);
  const writtenSkuIds = new Set(input.written.map((state) => state.skuId));
  const ownImages = new Map(
    input.product.variantImages
      .filter((v) => v.mediaIds.length > 0)
      .map((v) => [legacyIdOf(v.variantId), new Set(v.mediaIds)] as const),
  );
  const claimed = new Set([...ownImages.values()].flatMap((ids) => [...ids]));

  const add = (record: MediaRecord, mediaIds: string[], source: DesiredGallery['source']) => {
    if (record.skuId === null) {
      notes.push({
        code: 'record-not-created',
        message: `${record.supplierSku} does not exist in the catalog yet; its gallery waits for the attribute sync`,
        supplierSku: record.supplierSku,
      });
      return;
    }
    if (mediaIds.length > CatalogLimits.MEDIA_PER_PRODUCT) {
      notes.push({
        code: 'gallery-truncated',
        message: `${record.supplierSku} has ${mediaIds.length} images; the catalog keeps the first ${CatalogLimits.MEDIA_PER_PRODUCT}`,
        supplierSku: record.supplierSku,
        skuId: record.skuId,
      });
    }
    galleries.push({
      record: { ...record, skuId: record.skuId },
      mediaIds: mediaIds.slice(0, CatalogLimits.MEDIA_PER_PRODUCT),
      source,
    });
  };

  for (const record of input.records) {
    if (record.shopifyVariantId === null) {
      add(record, allIds, 'product');
      continue;
    }
    const own =
      settings.variantGalleries === 'own-image'
        ? ownImages.get(legacyIdOf(record.shopifyVariantId))
        : undefined;
    if (own) {
      // Its own images first, then the images no variant claims (other variants' colours left out).
      const mediaIds = [...allIds.filter((id) => own.has(id)), ...allIds.filter((id) => !claimed.has(id))];
      add(record, mediaIds, 'variant-own');
      if (record.skuId !== null && !writtenSkuIds.has(record.skuId)) {
        notes.push({
          code: 'variant-inheritance-broken',
          message: `${record.supplierSku} gets a gallery of its own: it no longer inherits the parent's media`,
          supplierSku: record.supplierSku,
          skuId: record.skuId,
        });
      }
    } else if (record.skuId !== null && writtenSkuIds.has(record.skuId)) {
      add(record, allIds, 'variant-restore');
      notes.push({
        code: 'variant-inheritance-not-restorable',
        message: `${record.supplierSku} had a gallery of its own; it now gets the parent's images, but only the catalog portal can make it inherit again`,
        supplierSku: record.supplierSku,
        skuId: record.skuId,
      });
    }
  }
  return { galleries, notes };
}

/** Every Shopify image some gallery needs (the ones worth fetching and uploading). */
export function neededMediaIds(galleries: readonly DesiredGallery[]): Set<string> {
  return new Set(galleries.flatMap((gallery) => gallery.mediaIds));
}
