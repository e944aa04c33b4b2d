import { Injectable } from '@nestjs/common';
import { Clock } from '#lib/clock';
import { CatalogClients } from '../../clients/catalog/catalog-clients.js';
import { PRODUCT_MEDIA_QUERY } from '../../clients/shopify/documents/product-media.query.js';
import { VARIANT_MEDIA_QUERY } from '../../clients/shopify/documents/variant-media.query.js';
import { ShopifyAdmin } from '../../clients/shopify/shopify-admin.service.js';
import { MediaSettings } from '../../platform/config/settings.js';
import { PlannedWritesRepository } from '../../product-sync/planned/planned-writes.repository.js';
import { SkuMapRepository } from '../../product-sync/sku-map/sku-map.repository.js';
import { ShopModes } from '../../shops/shop-modes.js';
import type { ProductImages, VariantImages } from '../model/product-images.js';
import type { GallerySettings, MediaRecord } from '../plan/desired-galleries.js';
import { plannedMediaWrites } from '../plan/planned-media-writes.js';
import { readProductMedia, readVariantMedia } from '../read/product-media.reader.js';
import { PgGalleryStateRepository } from '../store/gallery-state.repository.js';
import { PgImageMapRepository } from '../store/image-map.repository.js';
import { ImageFetchers } from './image-fetchers.js';
import { type MediaSyncResult, syncProductMedia } from './sync-product-media.js';

/** Requested query costs (`read/product-media.query.ts`), for the shop's cost pacer. */
const PRODUCT_MEDIA_COST = 502;
const VARIANT_MEDIA_COST = 802;

/** One product's media run: what it found and did, or why there was nothing to do. */
export type ProductMediaRun =
  | { kind: 'not-found' }
  | { kind: 'no-records' }
  | { kind: 'shadow'; planned: number }
  | { kind: 'done'; images: number; mediaIds: string[]; result: MediaSyncResult };

/**
 * Runs the media step for one product with the app's parts: its images read from Shopify (and
 * its variants' own images when they get galleries of their own), its catalog records from the
 * sku map, the shop's catalog client and image fetcher, and the image map and gallery states in
 * PostgreSQL. What failed is in the result; only bugs and failed reads throw. A shop in `shadow`
 * reads and plans the same way but fetches, uploads and writes nothing: the calls live would make
 * replace the product's `media` planned writes (issue 31), and no media state is stored, so the
 * product's first live sync runs its media for real.
 */
@Injectable()
export class ProductMediaRunner {
  constructor(
    private readonly shopify: ShopifyAdmin,
    private readonly catalogs: CatalogClients,
    private readonly skuMap: SkuMapRepository,
    private readonly fetchers: ImageFetchers,
    private readonly imageMap: PgImageMapRepository,
    private readonly galleries: PgGalleryStateRepository,
    private readonly clock: Clock,
    private readonly settings: MediaSettings,
    private readonly modes: ShopModes,
    private readonly planned: PlannedWritesRepository,
  ) {}

  async run(shop: string, productId: string): Promise<ProductMediaRun> {
    const shadow = (await this.modes.modeOf(shop)) === 'shadow';
    const records = shadow
      ? await this.shadowRecordsOf(shop, productId)
      : await this.recordsOf(shop, productId);
    if (records.length === 0) {
      if (shadow) await this.planned.replace(shop, productId, 'media', [], new Date(this.clock.now()));
      return { kind: 'no-records' };
    }
    const admin = this.shopify.forShop(shop);
    const id = `gid://shopify/Product/${productId}`;
    const read = readProductMedia(
      await admin.request<unknown>(PRODUCT_MEDIA_QUERY, { id }, PRODUCT_MEDIA_COST),
    );
    if (read === null) return { kind: 'not-found' };
    const settings = { variantGalleries: this.settings.variantGalleries };
    let variantImages: VariantImages[] = [];
    if (settings.variantGalleries === 'own-image' && records.some((r) => r.kind === 'variant')) {
      const data = await admin.request<unknown>(VARIANT_MEDIA_QUERY, { id }, VARIANT_MEDIA_COST);
      variantImages = readVariantMedia(data) ?? [];
    }
    if (shadow) return this.plan(shop, productId, { ...read, variantImages }, records, settings);
    const result = await syncProductMedia(
      {
        catalog: this.catalogs.forShop(shop).client,
        images: this.fetchers.forShop(shop),
        imageMap: this.imageMap,
        galleries: this.galleries,
        clock: this.clock,
      },
      { shop, product: { ...read, variantImages }, records, settings },
    );
    return { kind: 'done', images: read.images.length, mediaIds: read.images.map((i) => i.id), result };
  }

  /** Shadow: the media calls live would make become the product's `media` planned writes. */
  private async plan(
    shop: string,
    productId: string,
    product: ProductImages,
    records: readonly MediaRecord[],
    settings: GallerySettings,
  ): Promise<ProductMediaRun> {
    const skuIds = records.flatMap((r) => (r.skuId === null ? [] : [r.skuId]));
    const mediaIds = product.images.map((image) => image.id);
    const writes = plannedMediaWrites({
      product,
      records,
      written: skuIds.length > 0 ? await this.galleries.find(shop, skuIds) : [],
      mapRows: mediaIds.length > 0 ? await this.imageMap.findByMediaIds(shop, mediaIds) : [],
      settings,
    });
    await this.planned.replace(shop, productId, 'media', writes, new Date(this.clock.now()));
    return { kind: 'shadow', planned: writes.length };
  }

  /**
   * Shadow: the product's records as live would have them: those of the sku map, and the product
   * record its planned sync would create (the sku map holds no planned create).
   */
  private async shadowRecordsOf(shop: string, productId: string): Promise<MediaRecord[]> {
    const records = await this.recordsOf(shop, productId);
    const planned = (await this.planned.ofProduct(shop, productId)).filter((w) => w.source === 'sync');
    const kind = planned.some((w) => w.kind === 'createVariant') ? 'parent' : 'simple';
    for (const write of planned) {
      if (write.kind !== 'createProduct' || write.supplierSku === null) continue;
      if (records.some((r) => r.supplierSku === write.supplierSku)) continue;
      records.push({ kind, shopifyVariantId: null, supplierSku: write.supplierSku, skuId: null });
    }
    return records;
  }

  /** The product's records that exist or will (tombstoned ones never again); skuId only when live. */
  async recordsOf(shop: string, productId: string): Promise<MediaRecord[]> {
    const rows = await this.skuMap.rowsOfProduct(shop, productId);
    return rows
      .filter((row) => row.state !== 'tombstoned')
      .map((row) => ({
        kind: row.kind,
        shopifyVariantId: row.shopifyVariantId,
        supplierSku: row.supplierSku,
        skuId: row.state === 'live' ? row.skuId : null,
      }));
  }
}
