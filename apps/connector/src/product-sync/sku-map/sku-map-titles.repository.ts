import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import type { Repository } from 'typeorm';
import { SkuMapRow } from './sku-map-row.entity.js';

/** A product's title as its own record's snapshot holds it. */
export interface StoredTitle {
  shop: string;
  productId: string;
  title: string;
}

/**
 * Why a separate reader: the operators' view shows a product's title beside its id and searches
 * products by title, and the cheapest stored title is the product's own record's snapshot (the
 * attribute the shop's mapping sends Shopify's title to). These reads take the attribute per
 * shop and answer a whole page in one statement; they never write.
 */
@Injectable()
export class SkuMapTitles {
  constructor(@InjectRepository(SkuMapRow) private readonly rows: Repository<SkuMapRow>) {}

  /** The snapshot's `attribute` of each product's own record (the newest, when it has several). */
  async titles(
    lookups: ReadonlyArray<{ shop: string; productId: string; attribute: string }>,
  ): Promise<StoredTitle[]> {
    if (lookups.length === 0) return [];
    const rows: Array<{ shop: string; product_id: string; title: string }> = await this.rows.query(
      `SELECT DISTINCT ON (q.shop, q.product_id) q.shop, q.product_id::text AS product_id,
              m.snapshot->>q.attribute AS title
         FROM unnest($1::text[], $2::bigint[], $3::text[]) AS q(shop, product_id, attribute)
         JOIN ${this.table} m ON m.shop = q.shop AND m.shopify_product_id = q.product_id
        WHERE m.shopify_variant_id IS NULL AND jsonb_typeof(m.snapshot->q.attribute) = 'string'
        ORDER BY q.shop, q.product_id, m.updated_at DESC`,
      [lookups.map((l) => l.shop), lookups.map((l) => l.productId), lookups.map((l) => l.attribute)],
    );
    return rows.map((r) => ({ shop: r.shop, productId: r.product_id, title: r.title }));
  }

  /**
   * The products whose title (each shop's attribute) contains `text`, ignoring case, at most
   * `limit`, by title.
   */
  async titled(
    shops: ReadonlyArray<{ shop: string; attribute: string }>,
    text: string,
    limit: number,
  ): Promise<StoredTitle[]> {
    if (shops.length === 0 || text === '') return [];
    const pattern = `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    const rows: Array<{ shop: string; product_id: string; title: string }> = await this.rows.query(
      `SELECT shop, product_id, title FROM (
         SELECT DISTINCT ON (m.shop, m.shopify_product_id) m.shop, m.shopify_product_id::text AS product_id,
                m.snapshot->>q.attribute AS title
           FROM unnest($1::text[], $2::text[]) AS q(shop, attribute)
           JOIN ${this.table} m ON m.shop = q.shop
          WHERE m.shopify_variant_id IS NULL AND m.state <> 'tombstoned'
            AND m.snapshot->>q.attribute ILIKE $3
          ORDER BY m.shop, m.shopify_product_id, m.updated_at DESC) t
        ORDER BY lower(title), shop, product_id LIMIT $4`,
      [shops.map((s) => s.shop), shops.map((s) => s.attribute), pattern, limit],
    );
    return rows.map((r) => ({ shop: r.shop, productId: r.product_id, title: r.title }));
  }

  private get table(): string {
    return this.rows.metadata.tablePath;
  }
}
