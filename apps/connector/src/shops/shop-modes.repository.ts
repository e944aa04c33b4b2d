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

  /** Stores the shop's mode; resolves to the mode it had (null: none stored), read under the row's lock. */
  async set(shop: string, mode: ShopMode, at: Date): Promise<ShopMode | null> {
    return this.rows.manager.transaction(async (manager) => {
      const table = manager.getRepository(ShopModeRow);
      const before = await table.findOne({ where: { shop }, lock: { mode: 'pessimistic_write' } });
      await table.upsert({ shop, mode, updatedAt: at }, ['shop']);
      return before?.mode ?? null;
    });
  }

  /** Stores the mode only if the shop has none yet (a new install); an existing one is kept. */
  async setIfAbsent(shop: string, mode: ShopMode, at: Date): Promise<void> {
    await this.rows.query(
      `INSERT INTO ${this.rows.metadata.tablePath} (shop, mode, updated_at) VALUES ($1, $2, $3)
       ON CONFLICT (shop) DO NOTHING`,
      [shop, mode, at],
    );
  }

  /** `shop/redact`: deletes the shop's stored mode (`ShopDataRegistry`); resolves to how many went. */
  async purgeShop(shop: string): Promise<number> {
    return (await this.rows.delete({ shop })).affected ?? 0;
  }
}
