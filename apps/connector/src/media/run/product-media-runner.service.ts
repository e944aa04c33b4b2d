import { Injectable, type OnModuleInit } from '@nestjs/common';
import { Clock } from '#lib/clock';
import { CatalogClients } from '../../clients/catalog/catalog-clients.service.js';
import { readProductMedia, readVariantMedia } from '../../clients/shopify/media-reads.js';
import { ShopifyAdmin } from '../../clients/shopify/shopify-admin.service.js';
import { MediaSettings } from '../../platform/config/settings.js';
import { MediaDryRuns } from '../../product-sync/media-dry-runs.service.js';
import {
  type PlannedWrite,
  PlannedWritesRepository,
} from '../../product-sync/planned/planned-writes.repository.js';
import { SkuMapRepository } from '../../product-sync/sku-map/sku-map.repository.js';
import { ShopModes } from '../../shops/shop-modes.service.js';
import type { ProductImages, VariantImages } from '../model/product-images.js';
import type { GallerySettings, MediaRecord } from '../plan/desired-galleries.js';
import { plannedMediaWrites } from '../plan/planned-media-writes.js';
import { productImagesOf, variantImagesOf } from '../read/product-media.reader.js';
import { PgGalleryStateRepository } from '../store/gallery-state.repository.js';
import { PgImageMapRepository } from '../store/image-map.repository.js';
import { ImageFetchers } from './image-fetchers.service.js';
import { type MediaSyncResult, syncProductMedia } from './sync-product-media.js';

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
 * product's first live sync runs its media for real. A dry run (`MediaDryRuns`, provided here)
 * plans the same way and returns the calls instead of keeping them.
 */
@Injectable()
export class ProductMediaRunner implements OnModuleInit {
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
    private readonly dryRuns: MediaDryRuns,
  ) {}

  onModuleInit(): void {
    this.dryRuns.provide({ plan: (shop, productId, syncWrites) => this.dryRun(shop, productId, syncWrites) });
  }

  async run(shop: string, productId: string): Promise<ProductMediaRun> {
    const shadow = (await this.modes.modeOf(shop)) === 'shadow';
    const records = shadow
      ? await this.withPlannedCreates(shop, productId, await this.plannedSyncWrites(shop, productId))
      : await this.recordsOf(shop, productId);
    if (records.length === 0) {
      if (shadow) await this.planned.replace(shop, productId, 'media', [], new Date(this.clock.now()));
      return { kind: 'no-records' };
    }
    const read = await this.readImages(shop, productId, records);
    if (read === null) return { kind: 'not-found' };
    const settings = this.gallerySettings();
    if (shadow) {
      const writes = await this.planWrites(shop, read, records, settings);
      await this.planned.replace(shop, productId, 'media', writes, new Date(this.clock.now()));
      return { kind: 'shadow', planned: writes.length };
    }
    const result = await syncProductMedia(
      {
        catalog: this.catalogs.forShop(shop).client,
        images: this.fetchers.forShop(shop),
        imageMap: this.imageMap,
        galleries: this.galleries,
        clock: this.clock,
      },
      { shop, product: read, records, settings },
    );
    return { kind: 'done', images: read.images.length, mediaIds: read.images.map((i) => i.id), result };
  }

  /**
   * A dry run: the media calls live would make after a sync that planned `syncWrites`, read and
   * planned as in shadow; nothing fetched, sent or stored. None while media is off (live enqueues
   * no media job then).
   */
  async dryRun(
    shop: string,
    productId: string,
    syncWrites: readonly PlannedWrite[],
  ): Promise<PlannedWrite[]> {
    if (!this.settings.enabled) return [];
    const records = await this.withPlannedCreates(shop, productId, syncWrites);
    if (records.length === 0) return [];
    const read = await this.readImages(shop, productId, records);
    return read === null ? [] : this.planWrites(shop, read, records, this.gallerySettings());
  }

  private gallerySettings(): GallerySettings {
    return { variantGalleries: this.settings.variantGalleries };
  }

  /** The product's images from Shopify (its variants' own too when they get galleries); null: gone. */
  private async readImages(
    shop: string,
    productId: string,
    records: readonly MediaRecord[],
  ): Promise<ProductImages | null> {
    const admin = this.shopify.forShop(shop);
    const id = `gid://shopify/Product/${productId}`;
    const read = productImagesOf(await readProductMedia(admin, id));
    if (read === null) return null;
    let variantImages: VariantImages[] = [];
    if (this.settings.variantGalleries === 'own-image' && records.some((r) => r.kind === 'variant')) {
      variantImages = variantImagesOf(await readVariantMedia(admin, id)) ?? [];
    }
    return { ...read, variantImages };
  }

  /** Shadow and dry runs: the media calls live would make, as planned writes. */
  private async planWrites(
    shop: string,
    product: ProductImages,
    records: readonly MediaRecord[],
    settings: GallerySettings,
  ): Promise<PlannedWrite[]> {
    const skuIds = records.flatMap((r) => (r.skuId === null ? [] : [r.skuId]));
    const mediaIds = product.images.map((image) => image.id);
    return plannedMediaWrites({
      product,
      records,
      written: skuIds.length > 0 ? await this.galleries.find(shop, skuIds) : [],
      mapRows: mediaIds.length > 0 ? await this.imageMap.findByMediaIds(shop, mediaIds) : [],
      settings,
    });
  }

  /** Shadow: the product's planned sync writes (kept in `planned_writes`). */
  private async plannedSyncWrites(shop: string, productId: string): Promise<PlannedWrite[]> {
    return (await this.planned.ofProduct(shop, productId)).filter((w) => w.source === 'sync');
  }

  /**
   * Shadow and dry runs: the product's records as live would have them: those of the sku map, and
   * the product record its planned sync would create (the sku map holds no planned create).
   */
  private async withPlannedCreates(
    shop: string,
    productId: string,
    planned: readonly PlannedWrite[],
  ): Promise<MediaRecord[]> {
    const records = await this.recordsOf(shop, productId);
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
