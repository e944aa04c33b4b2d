import type { ProductWriteRequest } from '#lib/catalog-contract';
import type { GalleryState } from '../model/media-store.js';
import type { DesiredGallery, GalleryNote, MediaRecord } from './desired-galleries.js';

/** A record's `media` as read from the catalog; `inherited` on a variant that has no gallery of its own. */
export interface CurrentGallery {
  media: string[];
  inherited: boolean;
}

/** One `media` PATCH: the whole gallery, in order (the catalog replaces arrays whole). */
export interface GalleryWrite {
  record: MediaRecord & { skuId: string };
  media: string[];
  /** `updateProductBySkuId` for the product's own record, `updateVariant` for a variant. */
  method: 'updateProductBySkuId' | 'updateVariant';
  body: ProductWriteRequest;
  source: DesiredGallery['source'];
}

export interface GalleryWritePlan {
  writes: GalleryWrite[];
  /** Galleries the catalog already holds although the stored state says otherwise: save the state, no call. */
  inSync: Array<{ record: MediaRecord & { skuId: string }; media: string[] }>;
  notes: GalleryNote[];
}

export interface GalleryWritesInput {
  galleries: readonly DesiredGallery[];
  /** Shopify media id to catalog `fileId`, for every image that has one. */
  fileIds: ReadonlyMap<string, string>;
  /** The galleries the connector wrote last. */
  written: readonly GalleryState[];
  /**
   * The records' galleries as read from the catalog, by `skuId`, where the caller read them
   * (before replacing one). Without it, the last written gallery stands for the catalog's.
   */
  current?: ReadonlyMap<string, CurrentGallery>;
}

/**
 * Which records need their `media` replaced, and with which `fileId`s: Shopify's order, images
 * without a `fileId` left out, the same `fileId` once. No write when the gallery equals what the
 * catalog holds (or, unread, what the connector wrote last): a reorder is one write, an unchanged
 * product none. Where the caller read the catalog's gallery, replacing one the connector did not
 * write last is noted (`replaced-foreign-gallery`): Shopify owns `media`. Pure.
 */
export function planGalleryWrites(input: GalleryWritesInput): GalleryWritePlan {
  const lastBySkuId = new Map(input.written.map((state) => [state.skuId, state.media]));
  const plan: GalleryWritePlan = { writes: [], inSync: [], notes: [] };
  for (const gallery of input.galleries) {
    const { record } = gallery;
    const media = [
      ...new Set(gallery.mediaIds.map((id) => input.fileIds.get(id)).filter((id) => id !== undefined)),
    ];
    const last = lastBySkuId.get(record.skuId) ?? null;
    const current = input.current?.get(record.skuId);
    if (current?.inherited && gallery.source === 'variant-restore') continue; // inherits again (portal)
    const holds = current ? (current.inherited ? null : current.media) : (last ?? []);
    if (holds !== null && sameList(holds, media)) {
      if (current && !(last !== null ? sameList(last, media) : media.length === 0))
        plan.inSync.push({ record, media });
      continue;
    }
    if (current && isForeign(current, last)) {
      plan.notes.push({
        code: 'replaced-foreign-gallery',
        message: `${record.supplierSku}: the catalog gallery was not the one the connector wrote last; replaced with Shopify's images (Shopify owns media)`,
        supplierSku: record.supplierSku,
        skuId: record.skuId,
        lastWritten: last,
        found: current.inherited ? [] : current.media,
      });
    }
    plan.writes.push({
      record,
      media,
      method: record.shopifyVariantId === null ? 'updateProductBySkuId' : 'updateVariant',
      body: { product: { supplierSku: record.supplierSku, attributes: [{ key: 'media', value: media }] } },
      source: gallery.source,
    });
  }
  return plan;
}

/** The catalog's gallery differs from the connector's last write (none written counts as empty, or inherited for variants). */
function isForeign(current: CurrentGallery, last: string[] | null): boolean {
  if (current.inherited) return last !== null;
  return !sameList(current.media, last ?? []);
}

function sameList(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((value, i) => value === b[i]);
}
