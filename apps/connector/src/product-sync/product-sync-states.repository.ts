import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import type { Repository } from 'typeorm';
import { Clock } from '#lib/clock';
import type { SyncSubject } from './apply/sync-subject.js';
import { ProductSyncState } from './product-sync-state.entity.js';

/** Reads and advances a product's sync state; the applied `updatedAt` only ever moves forward. */
@Injectable()
export class ProductSyncStates {
  constructor(
    @InjectRepository(ProductSyncState) private readonly states: Repository<ProductSyncState>,
    private readonly clock: Clock,
  ) {}

  /** `shop/redact`: deletes every row of the shop (`ShopDataRegistry`); resolves to how many went. */
  async purgeShop(shop: string): Promise<number> {
    return (await this.states.delete({ shop })).affected ?? 0;
  }

  get(subject: SyncSubject): Promise<ProductSyncState | null> {
    return this.states.findOneBy({ shop: subject.shop, productId: subject.productId });
  }

  /** Records a run that applied Shopify's state as of `updatedAt`. */
  async applied(subject: SyncSubject, updatedAt: string): Promise<void> {
    await this.states.query(
      `INSERT INTO ${this.table} AS s (shop, product_id, last_applied_updated_at, last_synced_at, runs)
       VALUES ($1, $2, $3, $4, 1)
       ON CONFLICT (shop, product_id) DO UPDATE
         SET last_applied_updated_at = GREATEST(s.last_applied_updated_at, EXCLUDED.last_applied_updated_at),
             last_synced_at = EXCLUDED.last_synced_at, runs = s.runs + 1`,
      [subject.shop, subject.productId, new Date(updatedAt), new Date(this.clock.now())],
    );
  }

  /** Marks the product deleted, for good (the first tombstone's time is kept). */
  async tombstone(subject: SyncSubject): Promise<void> {
    const now = new Date(this.clock.now());
    await this.states.query(
      `INSERT INTO ${this.table} AS s (shop, product_id, last_synced_at, runs, tombstoned_at)
       VALUES ($1, $2, $3, 1, $3)
       ON CONFLICT (shop, product_id) DO UPDATE
         SET tombstoned_at = COALESCE(s.tombstoned_at, EXCLUDED.tombstoned_at),
             last_synced_at = EXCLUDED.last_synced_at, runs = s.runs + 1`,
      [subject.shop, subject.productId, now],
    );
  }

  /**
   * Per shop, how many products its syncs know and Shopify has not deleted (the mapping gaps'
   * share is of these).
   */
  async knownProducts(): Promise<Map<string, number>> {
    const rows: Array<{ shop: string; n: number }> = await this.states.query(
      `SELECT shop, count(*)::int AS n FROM ${this.table} WHERE tombstoned_at IS NULL GROUP BY shop`,
    );
    return new Map(rows.map((row) => [row.shop, row.n]));
  }

  /**
   * One page of the products synced most recently (of one shop, or every shop), newest first:
   * the web view's products list. `limit + 1` rows are read so the caller knows of a next page.
   */
  async recentlySynced(
    shop: string | null,
    limit: number,
    offset: number,
  ): Promise<{
    products: Array<{ shop: string; productId: string; syncedAt: Date; deleted: boolean }>;
    more: boolean;
  }> {
    const rows: Array<{
      shop: string;
      product_id: string;
      last_synced_at: Date;
      tombstoned_at: Date | null;
    }> = await this.states.query(
      `SELECT shop, product_id::text AS product_id, last_synced_at, tombstoned_at FROM ${this.table}
          WHERE last_synced_at IS NOT NULL AND ($1::text IS NULL OR shop = $1)
          ORDER BY last_synced_at DESC, shop, product_id LIMIT $2 OFFSET $3`,
      [shop, limit + 1, offset],
    );
    return {
      products: rows.slice(0, limit).map((row) => ({
        shop: row.shop,
        productId: row.product_id,
        syncedAt: new Date(row.last_synced_at),
        deleted: row.tombstoned_at !== null,
      })),
      more: rows.length > limit,
    };
  }

  private get table(): string {
    return this.states.metadata.tablePath;
  }
}
