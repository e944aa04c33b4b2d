import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import type { Repository } from 'typeorm';
import type { ShopMode } from '../platform/config/shop-mode.js';
import { ShopModeRow } from './shop-mode.entity.js';

/** The `shop_modes` table (each shop's stored mode): read and changed only here. */
@Injectable()
export class ShopModesRepository {
  constructor(@InjectRepository(ShopModeRow) private readonly rows: Repository<ShopModeRow>) {}

  /** The shop's stored mode; null: none stored. */
  async get(shop: string): Promise<ShopMode | null> {
    return (await this.rows.findOne({ where: { shop } }))?.mode ?? null;
  }

  /** Every stored mode, by shop. */
  async all(): Promise<Map<string, ShopMode>> {
    return new Map((await this.rows.find()).map((row) => [row.shop, row.mode]));
  }

  /** Stores the shop's mode; resolves to the mode it had (null: none stored). */
  async set(shop: string, mode: ShopMode, at: Date): Promise<ShopMode | null> {
    const table = this.rows.metadata.tablePath;
    const rows: { before: ShopMode | null }[] = await this.rows.query(
      `WITH before AS (SELECT mode FROM ${table} WHERE shop = $1 FOR UPDATE)
       INSERT INTO ${table} (shop, mode, updated_at) VALUES ($1, $2, $3)
       ON CONFLICT (shop) DO UPDATE SET mode = excluded.mode, updated_at = excluded.updated_at
       RETURNING (SELECT mode FROM before) AS before`,
      [shop, mode, at],
    );
    return rows[0]?.before ?? null;
  }

  /** Stores the mode only if the shop has none yet (a new install); an existing one is kept. */
  async setIfAbsent(shop: string, mode: ShopMode, at: Date): Promise<void> {
    await this.rows.query(
      `INSERT INTO ${this.rows.metadata.tablePath} (shop, mode, updated_at) VALUES ($1, $2, $3)
       ON CONFLICT (shop) DO NOTHING`,
      [shop, mode, at],
    );
  }
}
