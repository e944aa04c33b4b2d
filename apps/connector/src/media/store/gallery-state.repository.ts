import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { In, type Repository } from 'typeorm';
import type { GalleryState, GalleryStateRepository } from '../model/media-store.js';
import { MediaGalleryStateEntity } from './media-gallery-state.entity.js';

/**
 * The galleries the connector last wrote, in PostgreSQL (`media_gallery_state`), one per catalog
 * record: an unchanged gallery is not written again, and a gallery someone else changed since is
 * noticed (and noted) before it is replaced.
 */
@Injectable()
export class PgGalleryStateRepository implements GalleryStateRepository {
  constructor(
    @InjectRepository(MediaGalleryStateEntity) private readonly rows: Repository<MediaGalleryStateEntity>,
  ) {}

  /** `shop/redact`: deletes every row of the shop (`ShopDataRegistry`); resolves to how many went. */
  async purgeShop(shop: string): Promise<number> {
    return (await this.rows.delete({ shop })).affected ?? 0;
  }

  async find(shop: string, skuIds: readonly string[]): Promise<GalleryState[]> {
    if (skuIds.length === 0) return [];
    const found = await this.rows.find({ where: { shop, skuId: In([...skuIds]) } });
    return found.map((row) => ({
      shop: row.shop,
      skuId: row.skuId,
      media: [...row.media],
      writtenAt: Number(row.writtenAt),
    }));
  }

  async save(state: GalleryState): Promise<void> {
    await this.rows.query(
      `INSERT INTO ${this.rows.metadata.tablePath} (shop, sku_id, media, written_at)
       VALUES ($1, $2, $3::jsonb, $4)
       ON CONFLICT (shop, sku_id) DO UPDATE SET media = EXCLUDED.media, written_at = EXCLUDED.written_at`,
      [state.shop, state.skuId, JSON.stringify(state.media), state.writtenAt],
    );
  }
}
