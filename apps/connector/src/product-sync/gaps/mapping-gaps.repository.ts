import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import type { Repository } from 'typeorm';
import { blockedBy, type GapReason } from './gap-reasons.js';
import { MappingGapRow } from './mapping-gap.entity.js';

/** A reason and how many of the shop's products it applies to. */
export interface ReasonCount {
  reason: string;
  products: number;
}

/** A shop's mapping gaps at a glance: its products with gaps, and the reasons, most products first. */
export interface ShopGapSummary {
  shop: string;
  products: number;
  /** The products whose create the plan refused (the catalog holds no record of them). */
  blocked: number;
  /** The reasons, most products first (at most the limit asked for). */
  reasons: ReasonCount[];
  /** How many different reasons there are in all. */
  reasonCount: number;
}

/**
 * The `mapping_gaps` table (the products the mapping cannot fully map, per shop, and why): read
 * and changed only here. The sync writes each product's reasons as it plans it; the overview and
 * the list read them grouped by reason, in SQL, so a shop with many gaps costs one statement.
 */
@Injectable()
export class MappingGapsRepository {
  constructor(@InjectRepository(MappingGapRow) private readonly rows: Repository<MappingGapRow>) {}

  /** The product's reasons as its latest plan gives them; none clears its row. */
  async record(
    shop: string,
    productId: string,
    title: string | null,
    reasons: readonly GapReason[],
    at: Date,
  ): Promise<void> {
    if (reasons.length === 0) {
      await this.clearProduct(shop, productId);
      return;
    }
    await this.rows.query(
      `INSERT INTO ${this.table} (shop, product_id, title, reasons, blocked, recorded_at)
       VALUES ($1, $2, $3, $4::jsonb, $5, $6)
       ON CONFLICT (shop, product_id) DO UPDATE
         SET title = EXCLUDED.title, reasons = EXCLUDED.reasons, blocked = EXCLUDED.blocked,
             recorded_at = EXCLUDED.recorded_at`,
      [shop, productId, title, JSON.stringify(reasons), blockedBy(reasons), at],
    );
  }

  /** The product left the catalog's side (deleted, out of scope): it has no gaps any more. */
  async clearProduct(shop: string, productId: string): Promise<void> {
    await this.rows.delete({ shop, productId });
  }

  /** `shop/redact`: deletes every row of the shop (`ShopDataRegistry`); resolves to how many went. */
  async purgeShop(shop: string): Promise<number> {
    return (await this.rows.delete({ shop })).affected ?? 0;
  }

  /** One product's row, or null when it has no gaps. */
  ofProduct(shop: string, productId: string): Promise<MappingGapRow | null> {
    return this.rows.findOneBy({ shop, productId });
  }

  /**
   * Every shop with gaps (or only `shop`): its products, the blocked ones, and its first
   * `reasonLimit` reasons, most products first (then by their words).
   */
  async summaries(reasonLimit: number, shop: string | null = null): Promise<ShopGapSummary[]> {
    const [counts, reasons]: [
      Array<{ shop: string; products: number; blocked: number }>,
      Array<{ shop: string; reason: string; products: number; total: number }>,
    ] = await Promise.all([
      this.rows.query(
        `SELECT shop, count(*)::int AS products, count(*) FILTER (WHERE blocked)::int AS blocked
           FROM ${this.table} WHERE ($1::text IS NULL OR shop = $1) GROUP BY shop ORDER BY shop`,
        [shop],
      ),
      this.rows.query(
        `SELECT shop, reason, products, total FROM (
           SELECT shop, reason, products,
                  row_number() OVER (PARTITION BY shop ORDER BY products DESC, reason) AS n,
                  count(*) OVER (PARTITION BY shop)::int AS total
             FROM (SELECT g.shop, r->>'reason' AS reason, count(*)::int AS products
                     FROM ${this.table} g CROSS JOIN LATERAL jsonb_array_elements(g.reasons) r
                    WHERE ($1::text IS NULL OR g.shop = $1)
                    GROUP BY g.shop, r->>'reason') grouped) ranked
          WHERE n <= $2 ORDER BY shop, n`,
        [shop, reasonLimit],
      ),
    ]);
    return counts.map((count) => {
      const own = reasons.filter((row) => row.shop === count.shop);
      return {
        ...count,
        reasons: own.map((row) => ({ reason: row.reason, products: row.products })),
        reasonCount: own[0]?.total ?? 0,
      };
    });
  }

  /**
   * A page of the shop's products with gaps (those with `reason` only, when given), latest
   * recorded first, and how many match in all.
   */
  async page(
    shop: string,
    filter: { reason: string | null; limit: number; offset: number },
  ): Promise<{ items: MappingGapRow[]; total: number }> {
    const query = this.rows.createQueryBuilder('g').where('g.shop = :shop', { shop });
    if (filter.reason !== null) {
      query.andWhere(`g.reasons @> jsonb_build_array(jsonb_build_object('reason', CAST(:reason AS text)))`, {
        reason: filter.reason,
      });
    }
    const [items, total] = await query
      .orderBy('g.recordedAt', 'DESC')
      .addOrderBy('g.productId', 'ASC')
      .take(filter.limit)
      .skip(filter.offset)
      .getManyAndCount();
    return { items, total };
  }

  private get table(): string {
    return this.rows.metadata.tablePath;
  }
}
