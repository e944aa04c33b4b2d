import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import type { Repository } from 'typeorm';
import { SkuMapRow } from './sku-map-row.entity.js';

/**
 * Which listed products the connector has already applied at the `updatedAt` Shopify lists.
 * Why not a plain comparison: Shopify's `updatedAt` has second precision, so an update in the
 * same second as the state last applied looks "seen". A product counts as seen when its own map
 * row applied a later `updatedAt`, or the same one through a sync run that started after that
 * second was over (its read then included every change of that second).
 */
@Injectable()
export class SeenProducts {
  constructor(@InjectRepository(SkuMapRow) private readonly rows: Repository<SkuMapRow>) {}

  async among(
    shop: string,
    products: ReadonlyArray<{ productId: string; updatedAt: string }>,
  ): Promise<Set<string>> {
    if (products.length === 0) return new Set();
    const map = this.rows.metadata.tablePath;
    const runs = map.replace(/sku_map$/, 'sync_records');
    const rows: Array<{ id: string }> = await this.rows.query(
      `SELECT m.shopify_product_id::text AS id
         FROM ${map} m
         JOIN unnest($2::bigint[], $3::timestamptz[]) AS p(id, updated_at) ON p.id = m.shopify_product_id
        WHERE m.shop = $1 AND m.shopify_variant_id IS NULL AND m.state <> 'tombstoned'
          AND (m.shopify_updated_at > p.updated_at
               OR (m.shopify_updated_at = p.updated_at AND EXISTS (
                     SELECT 1 FROM ${runs} r
                      WHERE r.shop = m.shop AND r.product_id = m.shopify_product_id AND r.outcome = 'synced'
                        AND r.started_at >= p.updated_at + interval '1 second')))`,
      [shop, products.map((p) => p.productId), products.map((p) => new Date(p.updatedAt))],
    );
    return new Set(rows.map((r) => r.id));
  }
}
