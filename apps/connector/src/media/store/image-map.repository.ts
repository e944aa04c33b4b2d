import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { In, type Repository } from 'typeorm';
import { Clock } from '#lib/clock';
import type { ImageMapRepository, ImageMapRow } from '../model/media-store.js';
import { MediaImageMapEntity } from './media-image-map.entity.js';

/**
 * The image map in PostgreSQL (`media_image_map`): which catalog `fileId` each Shopify image's
 * bytes became. Upserts by (shop, shopifyMediaId), so a retried media job never duplicates rows,
 * and a row whose bytes changed is replaced.
 */
@Injectable()
export class PgImageMapRepository implements ImageMapRepository {
  constructor(
    @InjectRepository(MediaImageMapEntity) private readonly rows: Repository<MediaImageMapEntity>,
    private readonly clock: Clock,
  ) {}

  /** `shop/redact`: deletes every row of the shop (`ShopDataRegistry`); resolves to how many went. */
  async purgeShop(shop: string): Promise<number> {
    return (await this.rows.delete({ shop })).affected ?? 0;
  }

  async findByMediaIds(shop: string, shopifyMediaIds: readonly string[]): Promise<ImageMapRow[]> {
    if (shopifyMediaIds.length === 0) return [];
    const found = await this.rows.find({ where: { shop, shopifyMediaId: In([...shopifyMediaIds]) } });
    return found.map(toRow);
  }

  async findByContentHashes(shop: string, contentHashes: readonly string[]): Promise<ImageMapRow[]> {
    if (contentHashes.length === 0) return [];
    const found = await this.rows.find({
      where: { shop, contentHash: In([...contentHashes]) },
      order: { id: 'ASC' },
    });
    return found.map(toRow);
  }

  async upsert(rows: readonly ImageMapRow[]): Promise<void> {
    if (rows.length === 0) return;
    const now = new Date(this.clock.now());
    const values: unknown[] = [];
    const tuples = rows.map((row, i) => {
      values.push(
        row.shop,
        row.shopifyMediaId,
        row.sourceUrl,
        row.contentHash,
        row.fileId,
        row.byteSize,
        row.format,
      );
      const p = i * 7;
      return `($${p + 1}, $${p + 2}, $${p + 3}, $${p + 4}, $${p + 5}, $${p + 6}, $${p + 7}, $${rows.length * 7 + 1}, $${rows.length * 7 + 1})`;
    });
    values.push(now);
    // One statement per call: rows of one upload group share a fileId and land together.
    await this.rows.query(
      `INSERT INTO ${this.rows.metadata.tablePath}
         (shop, shopify_media_id, source_url, content_hash, file_id, byte_size, format, created_at, updated_at)
       VALUES ${tuples.join(', ')}
       ON CONFLICT (shop, shopify_media_id) DO UPDATE
         SET source_url = EXCLUDED.source_url, content_hash = EXCLUDED.content_hash,
             file_id = EXCLUDED.file_id, byte_size = EXCLUDED.byte_size, format = EXCLUDED.format,
             updated_at = EXCLUDED.updated_at`,
      values,
    );
  }
}

function toRow(entity: MediaImageMapEntity): ImageMapRow {
  return {
    shop: entity.shop,
    shopifyMediaId: entity.shopifyMediaId,
    sourceUrl: entity.sourceUrl,
    contentHash: entity.contentHash,
    fileId: entity.fileId,
    byteSize: entity.byteSize,
    format: entity.format,
  };
}
