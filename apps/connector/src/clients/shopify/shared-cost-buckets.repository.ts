import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import type { Repository } from 'typeorm';
import { ShopSessionRepository } from '../../shops/shop-sessions.repository.js';
import type { ThrottleStatus } from './cost-pacer.js';
import { ShopifyCostBucketRow } from './shopify-cost-bucket.entity.js';

/** The bucket's level at `$now` (ms), refilled at its restore rate since it was written. */
const LEVEL = (now: string) =>
  `LEAST(b.maximum, b.available + GREATEST(0, ${now} - b.updated_ms) * b.restore_rate / 1000)`;

/**
 * Each shop's Admin API cost bucket shared by every worker of every replica, in PostgreSQL
 * (Shopify's bucket is per app and store). A call `take`s its requested cost before it is sent,
 * atomically, only when the bucket holds it; its answer `settle`s: the refund (requested less
 * actual cost) goes back, and the level never exceeds what Shopify reported. A call that never
 * answers (a crashed replica) keeps its points only until the bucket refills.
 */
@Injectable()
export class SharedCostBuckets {
  constructor(
    @InjectRepository(ShopifyCostBucketRow) private readonly rows: Repository<ShopifyCostBucketRow>,
    private readonly sessions: ShopSessionRepository,
  ) {}

  /** `shop/redact`: forgets the shop's bucket (it is rebuilt from Shopify's next report). */
  async purgeShop(shop: string): Promise<number> {
    const [, affected]: [unknown, number] = await this.rows.query(
      `DELETE FROM ${this.table} WHERE shop = $1`,
      [shop],
    );
    return affected;
  }

  /** Takes `cost` points now (0), or says how long until the bucket holds them (ms). */
  async take(shop: string, cost: number, nowMs: number): Promise<number> {
    const taken: [unknown[], number] = await this.rows.query(
      `UPDATE ${this.table} AS b SET available = ${LEVEL('$3')} - $2, updated_ms = GREATEST(b.updated_ms, $3)
        WHERE b.shop = $1 AND ${LEVEL('$3')} >= LEAST($2, b.maximum)`,
      [shop, cost, nowMs],
    );
    if (taken[1] === 1) return 0;
    const rows: Array<{ level: number; maximum: number; restore_rate: number }> = await this.rows.query(
      `SELECT ${LEVEL('$2')} AS level, b.maximum, b.restore_rate FROM ${this.table} AS b WHERE b.shop = $1`,
      [shop, nowMs],
    );
    const row = rows[0];
    // No report yet: nothing is known, the call goes (its answer starts the bucket).
    if (!row || row.restore_rate <= 0) return 0;
    const needed = Math.min(cost, row.maximum);
    return Math.max(1, Math.ceil(((needed - row.level) / row.restore_rate) * 1000));
  }

  /** An answer's report and its refund (requested less actual cost). */
  async settle(shop: string, status: ThrottleStatus, refund: number, nowMs: number): Promise<void> {
    await this.rows.query(
      // A call answered after its shop was redacted (sent before) does not bring the row back.
      `INSERT INTO ${this.table} AS b (shop, available, maximum, restore_rate, updated_ms)
       SELECT $1, $2, $3, $4, $6
        WHERE NOT ${this.sessions.redactedSql('$1')}
       ON CONFLICT (shop) DO UPDATE SET
         available = LEAST(EXCLUDED.available, ${LEVEL('$6')} + $5),
         maximum = EXCLUDED.maximum, restore_rate = EXCLUDED.restore_rate,
         updated_ms = GREATEST(b.updated_ms, $6)`,
      [
        shop,
        status.currentlyAvailable,
        status.maximumAvailable,
        status.restoreRate,
        Math.max(0, refund),
        nowMs,
      ],
    );
  }

  /** Each shop's bucket use now, 0 to 1 (the overview); shops without a report are left out. */
  async use(nowMs: number): Promise<Map<string, number>> {
    const rows: Array<{ shop: string; level: number; maximum: number }> = await this.rows.query(
      `SELECT b.shop, ${LEVEL('$1')} AS level, b.maximum FROM ${this.table} AS b`,
      [nowMs],
    );
    return new Map(
      rows.map((row) => [row.shop, row.maximum > 0 ? 1 - Number(row.level) / Number(row.maximum) : 0]),
    );
  }

  private get table(): string {
    return this.rows.metadata.tablePath;
  }
}
