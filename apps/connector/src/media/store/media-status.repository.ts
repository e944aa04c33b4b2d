import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import type { Repository } from 'typeorm';
import { Clock } from '#lib/clock';
import { SyncRecords } from '../../product-sync/sync-records.repository.js';
import type { GalleryNote } from '../plan/desired-galleries.js';
import { MediaProductStatusEntity, type StoredImageFailure } from './media-product-status.entity.js';

/** A product's media status as the product's status shows it (never the entity itself). */
export interface MediaStatus {
  shop: string;
  productId: string;
  notes: GalleryNote[];
  imageFailures: StoredImageFailure[];
  images: number;
  uploads: number;
  writes: number;
  lastRunAt: string;
  /** ISO time of the last replacement of a gallery the connector had not written; null: never. */
  foreignGalleryReplacedAt: string | null;
}

/** One media run of a product, to record. */
export interface MediaRunRecord {
  shop: string;
  productId: string;
  notes: readonly GalleryNote[];
  imageFailures: readonly StoredImageFailure[];
  images: number;
  uploads: number;
  writes: number;
}

/**
 * The media status of each product (`media_product_status`): the last run's notes and failed
 * images, and when the connector last replaced a gallery it had not written (Shopify owns
 * `media`: a gallery edited on the catalog side is overwritten, and that is recorded here).
 */
@Injectable()
export class MediaStatusRepository {
  constructor(
    @InjectRepository(MediaProductStatusEntity) private readonly rows: Repository<MediaProductStatusEntity>,
    private readonly clock: Clock,
    private readonly syncRecords: SyncRecords,
  ) {}

  /**
   * Products whose sync finished after `since` and after their last media run (or with none): a
   * queue backend that lost its data is repaired from this (a media run is only asked for in the
   * queue, so the product's sync record is PostgreSQL's trace of it).
   */
  async syncedSinceLastRun(since: Date): Promise<Array<{ shop: string; productId: string }>> {
    const statuses = this.rows.metadata.tablePath;
    const rows: Array<{ shop: string; product_id: string }> = await this.rows.query(
      `SELECT DISTINCT s.shop, s.product_id::text AS product_id
         FROM ${this.syncRecords.runsSql()} s
        WHERE s.outcome = 'synced' AND s.finished_at > $1
          AND NOT EXISTS (
            SELECT 1 FROM ${statuses} m
             WHERE m.shop = s.shop AND m.shopify_product_id = s.product_id AND m.last_run_at >= s.finished_at)`,
      [since],
    );
    return rows.map((row) => ({ shop: row.shop, productId: row.product_id }));
  }

  /** `shop/redact`: deletes every row of the shop (`ShopDataRegistry`); resolves to how many went. */
  async purgeShop(shop: string): Promise<number> {
    return (await this.rows.delete({ shop })).affected ?? 0;
  }

  async record(run: MediaRunRecord): Promise<void> {
    const now = new Date(this.clock.now());
    const replaced = run.notes.some((note) => note.code === 'replaced-foreign-gallery') ? now : null;
    await this.rows.query(
      `INSERT INTO ${this.rows.metadata.tablePath} AS s
         (shop, shopify_product_id, notes, image_failures, images, uploads, writes, last_run_at,
          foreign_gallery_replaced_at)
       VALUES ($1, $2, $3::jsonb, $4::jsonb, $5, $6, $7, $8, $9)
       ON CONFLICT (shop, shopify_product_id) DO UPDATE
         SET notes = EXCLUDED.notes, image_failures = EXCLUDED.image_failures, images = EXCLUDED.images,
             uploads = EXCLUDED.uploads, writes = EXCLUDED.writes, last_run_at = EXCLUDED.last_run_at,
             foreign_gallery_replaced_at = COALESCE(EXCLUDED.foreign_gallery_replaced_at,
                                                    s.foreign_gallery_replaced_at)`,
      [
        run.shop,
        run.productId,
        JSON.stringify(run.notes),
        JSON.stringify(run.imageFailures),
        run.images,
        run.uploads,
        run.writes,
        now,
        replaced,
      ],
    );
  }

  async get(shop: string, productId: string): Promise<MediaStatus | null> {
    const row = await this.rows.findOneBy({ shop, shopifyProductId: productId });
    if (!row) return null;
    return {
      shop: row.shop,
      productId: row.shopifyProductId,
      notes: row.notes,
      imageFailures: row.imageFailures,
      images: row.images,
      uploads: row.uploads,
      writes: row.writes,
      lastRunAt: row.lastRunAt.toISOString(),
      foreignGalleryReplacedAt: row.foreignGalleryReplacedAt?.toISOString() ?? null,
    };
  }
}
