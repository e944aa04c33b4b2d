import { Injectable } from '@nestjs/common';
import { Clock } from '#lib/clock';
import { CatalogClients } from '../../clients/catalog/catalog-clients.js';
import { PRODUCT_MEDIA_QUERY } from '../../clients/shopify/documents/product-media.query.js';
import { VARIANT_MEDIA_QUERY } from '../../clients/shopify/documents/variant-media.query.js';
import { ShopifyAdmin } from '../../clients/shopify/shopify-admin.service.js';
import { MediaSettings } from '../../platform/config/settings.js';
import { SkuMapRepository } from '../../product-sync/sku-map/sku-map.repository.js';
import type { VariantImages } from '../model/product-images.js';
import type { MediaRecord } from '../plan/desired-galleries.js';
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
  | { kind: 'done'; images: number; mediaIds: string[]; result: MediaSyncResult };

/**
 * Runs the media step for one product with the app's parts: its images read from Shopify (and
 * its variants' own images when they get galleries of their own), its catalog records from the
 * sku map, the shop's catalog client and image fetcher, and the image map and gallery states in
 * PostgreSQL. What failed is in the result; only bugs and failed reads throw.
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
  ) {}

  async run(shop: string, productId: string): Promise<ProductMediaRun> {
    const records = await this.recordsOf(shop, productId);
    if (records.length === 0) return { kind: 'no-records' };
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
