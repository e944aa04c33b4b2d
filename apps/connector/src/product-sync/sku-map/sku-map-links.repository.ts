import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Not, type Repository } from 'typeorm';
import { Clock } from '#lib/clock';
import type { AttributeSnapshot, RecordKind } from '../plan/index.js';
import { SkuMapRow } from './sku-map-row.entity.js';

/** An existing catalog record taken over for a Shopify product or variant. */
export interface RecordLink {
  kind: RecordKind;
  /** Null on the product's own record. */
  shopifyVariantId: string | null;
  /** The record's own supplierSku (records made by other tools keep theirs). */
  supplierSku: string;
  parentSupplierSku: string | null;
  skuId: string;
  /** What the record holds now: the next sync sends only what differs. */
  snapshot: AttributeSnapshot;
}

/**
 * Why a separate writer: linking enters rows the connector never created, straight as `live`
 * (the record exists, its skuId is known), which the create-intent flow of `SkuMapRepository`
 * does not allow. `shopifyUpdatedAt` stays null, so reconciliation and resync treat the product
 * as not yet synced and its next sync brings the record in line with Shopify.
 */
@Injectable()
export class SkuMapLinks {
  constructor(
    @InjectRepository(SkuMapRow) private readonly rows: Repository<SkuMapRow>,
    private readonly clock: Clock,
  ) {}

  /**
   * Links one product's records, all or none (one transaction): false when any of them is taken
   * meanwhile (the product, the supplierSku or the skuId has a row already).
   */
  async link(shop: string, productId: string, links: readonly RecordLink[]): Promise<boolean> {
    const now = new Date(this.clock.now());
    return this.rows.manager
      .transaction(async (manager) => {
        for (const link of links) {
          const inserted: Array<{ id: string }> = await manager.query(
            `INSERT INTO ${this.rows.metadata.tablePath}
             (shop, shopify_product_id, shopify_variant_id, kind, supplier_sku, parent_supplier_sku, sku_id, state,
              snapshot, gaps, notes, created_at, updated_at)
           VALUES ($1, $2, $3, $4, $5, $6, $7, 'live', $8::jsonb, '[]'::jsonb, '[]'::jsonb, $9, $9)
           ON CONFLICT DO NOTHING
           RETURNING id::text AS id`,
            [
              shop,
              productId,
              link.shopifyVariantId,
              link.kind,
              link.supplierSku,
              link.parentSupplierSku,
              link.skuId,
              JSON.stringify(link.snapshot),
              now,
            ],
          );
          if (inserted.length === 0) throw new LinkTaken();
        }
        return true;
      })
      .catch((error: unknown) => {
        if (error instanceof LinkTaken) return false;
        throw error;
      });
  }

  /**
   * Of `products` (a listed page), those whose own map row applied a later `updatedAt` than the
   * listed one (`later`), and those whose row applied that very `updatedAt` (`sameSecond`: seen
   * only if a sync run started after that second, which `SeenProducts` asks the sync records).
   */
  async appliedFrom(
    shop: string,
    products: ReadonlyArray<{ productId: string; updatedAt: string }>,
  ): Promise<{ later: Set<string>; sameSecond: Set<string> }> {
    const later = new Set<string>();
    const sameSecond = new Set<string>();
    if (products.length === 0) return { later, sameSecond };
    const rows: Array<{ id: string; later: boolean }> = await this.rows.query(
      `SELECT m.shopify_product_id::text AS id, m.shopify_updated_at > p.updated_at AS later
         FROM ${this.rows.metadata.tablePath} m
         JOIN unnest($2::bigint[], $3::timestamptz[]) AS p(id, updated_at) ON p.id = m.shopify_product_id
        WHERE m.shop = $1 AND m.shopify_variant_id IS NULL AND m.state <> 'tombstoned'
          AND m.shopify_updated_at >= p.updated_at`,
      [shop, products.map((p) => p.productId), products.map((p) => new Date(p.updatedAt))],
    );
    for (const row of rows) (row.later ? later : sameSecond).add(row.id);
    return { later, sameSecond };
  }

  /** Every skuId the map holds for these shops (records already taken). */
  async mappedSkuIds(shops: readonly string[]): Promise<Set<string>> {
    const rows: Array<{ sku_id: string }> = await this.rows.query(
      `SELECT sku_id FROM ${this.rows.metadata.tablePath} WHERE shop = ANY($1) AND sku_id IS NOT NULL`,
      [[...shops]],
    );
    return new Set(rows.map((r) => r.sku_id));
  }

  /**
   * The records a drift report holds to be claimed, by map rows of every shop the connector
   * serves (the whole map, whatever catalog key: several keys on one account, shops a replica
   * never touched): skuIds of rows not tombstoned, and their supplierSkus (a pending create's
   * record has no skuId in the map yet, and is found by its supplierSku). Given `records`, only
   * those skuIds and supplierSkus are looked up (a repair re-checking its finding).
   */
  async claimedRecords(records?: {
    skuIds: readonly string[];
    supplierSkus: readonly string[];
  }): Promise<{ skuIds: Set<string>; supplierSkus: Set<string> }> {
    const table = this.rows.metadata.tablePath;
    const rows: Array<{ sku_id: string | null; supplier_sku: string }> =
      records === undefined
        ? await this.rows.query(`SELECT sku_id, supplier_sku FROM ${table} WHERE state <> 'tombstoned'`)
        : await this.rows.query(
            `SELECT sku_id, supplier_sku FROM ${table}
              WHERE state <> 'tombstoned' AND (sku_id = ANY($1) OR supplier_sku = ANY($2))`,
            [[...records.skuIds], [...records.supplierSkus]],
          );
    const skuIds = new Set<string>();
    for (const row of rows) if (row.sku_id !== null) skuIds.add(row.sku_id);
    return { skuIds, supplierSkus: new Set(rows.map((r) => r.supplier_sku)) };
  }

  /**
   * Whether a shop other than `shop` has a map row (tombstoned too) whose supplierSku is derived
   * under `prefix` (`<prefix>:...`): then a record under that prefix may be that shop's.
   */
  async prefixUsedByOthers(shop: string, prefix: string): Promise<boolean> {
    const rows: Array<{ one: number }> = await this.rows.query(
      `SELECT 1 AS one FROM ${this.rows.metadata.tablePath}
        WHERE shop <> $1 AND left(supplier_sku, $3) = $2 LIMIT 1`,
      [shop, `${prefix}:`, prefix.length + 1],
    );
    return rows.length > 0;
  }

  /** The shop's rows that are not tombstoned, in id order: the map's side of a drift report. */
  async liveRows(shop: string): Promise<SkuMapRow[]> {
    return this.rows.find({ where: { shop, state: Not('tombstoned') }, order: { id: 'ASC' } });
  }

  /** Products of the shop with rows that are not tombstoned: the map knows them. */
  async mappedProducts(shop: string): Promise<Set<string>> {
    const rows: Array<{ id: string }> = await this.rows.query(
      `SELECT DISTINCT shopify_product_id::text AS id FROM ${this.rows.metadata.tablePath}
        WHERE shop = $1 AND state <> 'tombstoned'`,
      [shop],
    );
    return new Set(rows.map((r) => r.id));
  }

  /** Every supplierSku the shop's rows use (tombstoned too): never linked twice. */
  async usedSupplierSkus(shop: string): Promise<Set<string>> {
    const rows: Array<{ supplier_sku: string }> = await this.rows.query(
      `SELECT supplier_sku FROM ${this.rows.metadata.tablePath} WHERE shop = $1`,
      [shop],
    );
    return new Set(rows.map((r) => r.supplier_sku));
  }
}

class LinkTaken extends Error {}
