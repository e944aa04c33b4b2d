import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { In, IsNull, Not, type Repository } from 'typeorm';
import { Clock } from '#lib/clock';
import type { PlanNote, PlannedRecord, RecordKind, StoredRecord } from '../plan/index.js';
import { SkuMapRow, type SkuMapState } from './sku-map-row.entity.js';

/** Ids per `IN (...)` lookup: one statement stays small however many ids a caller has. */
const LOOKUP_CHUNK = 1_000;

/** A create about to be sent: the row that makes a retry look the record up instead. */
export interface CreateIntent {
  shop: string;
  /** Shopify's numeric product id (decimal string). */
  productId: string;
  kind: RecordKind;
  /** Null on the product's own record. */
  shopifyVariantId: string | null;
  supplierSku: string;
  parentSupplierSku: string | null;
  /** On the parents of a product split into groups: the group's key. */
  variantGroup?: string | null;
}

/** What a record looks like once its call (or no call) applied: the planner's `PlannedRecord` fits. */
export type AppliedRecord = Pick<
  PlannedRecord,
  'kind' | 'parentSupplierSku' | 'snapshot' | 'shopifyUpdatedAt' | 'configuration' | 'gaps'
> & {
  notes?: readonly PlanNote[];
  /** On parents: their group (null: the product's one record); left out, the row keeps its own. */
  variantGroup?: string | null;
};

/** A configuration records were built from, and the hash they stored (`configurationGroups`). */
export interface ConfigurationGroup {
  dependencies: string[];
  hash: string;
}

/** A map write that found the row in a state it may not move from (a bug in the caller, or a race). */
export class SkuMapConflict extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SkuMapConflict';
  }
}

/**
 * The sku map's reads and writes, per shop. Crash safety rests on the order the sync keeps:
 * `recordIntent` (committed) before a create is sent; a row still pending (no skuId) is created
 * again only with a catalog look-up first (`lookupFirst`); `markLive` once the skuId is known.
 */
@Injectable()
export class SkuMapRepository {
  constructor(
    @InjectRepository(SkuMapRow) private readonly rows: Repository<SkuMapRow>,
    private readonly clock: Clock,
  ) {}

  /** `shop/redact`: deletes every row of the shop (`ShopDataRegistry`); resolves to how many went. */
  async purgeShop(shop: string): Promise<number> {
    return (await this.rows.delete({ shop })).affected ?? 0;
  }

  /** Every row of a product, tombstoned ones included: the product's own row first, then variants. */
  async rowsOfProduct(shop: string, productId: string): Promise<SkuMapRow[]> {
    const rows = await this.rows.find({
      where: { shop, shopifyProductId: productId },
      order: { id: 'ASC' },
    });
    return [
      ...rows.filter((r) => r.shopifyVariantId === null),
      ...rows.filter((r) => r.shopifyVariantId !== null),
    ];
  }

  /** How many live variant rows the product has (null: never mapped): what its next read asks for. */
  async variantCount(shop: string, productId: string): Promise<number | null> {
    const rows = await this.rowsOfProduct(shop, productId);
    if (rows.length === 0) return null;
    return storedRecordsOf(rows).filter((record) => record.shopifyVariantId !== null).length;
  }

  /** What the planner takes (`PlanInput.stored`): the product's rows that are not tombstoned. */
  async storedRecords(shop: string, productId: string): Promise<StoredRecord[]> {
    return storedRecordsOf(await this.rowsOfProduct(shop, productId));
  }

  /**
   * Which of `candidates` some row of the shop already uses (tombstoned rows too): `takenSupplierSkus`.
   * Looked up trimmed, as `newSupplierSku` chooses them (a SKU with surrounding spaces would
   * otherwise pass the look-up and collide with the unique key).
   */
  async takenSupplierSkus(shop: string, candidates: readonly string[]): Promise<Set<string>> {
    const trimmed = [...new Set(candidates.map((c) => c.trim()).filter((c) => c !== ''))];
    if (trimmed.length === 0) return new Set();
    const rows = await this.rows.find({
      select: { supplierSku: true },
      where: { shop, supplierSku: In(trimmed) },
    });
    return new Set(rows.map((r) => r.supplierSku));
  }

  /**
   * Records the intent to create a record, before the call: a new `pending-create` row, or a
   * `gone-from-catalog` (or still pending) row of the same Shopify product/variant set pending
   * again. Throws `SkuMapConflict` for a live or tombstoned row: it must never be created again.
   */
  async recordIntent(intent: CreateIntent): Promise<void> {
    const now = new Date(this.clock.now());
    const result: Array<{ id: string }> = await this.rows.query(
      `INSERT INTO ${this.table} AS m
         (shop, shopify_product_id, shopify_variant_id, kind, supplier_sku, parent_supplier_sku, state,
          snapshot, gaps, notes, created_at, updated_at, variant_group)
       VALUES ($1, $2, $3, $4, $5, $6, 'pending-create', '{}'::jsonb, '[]'::jsonb, '[]'::jsonb, $7, $7, $8)
       ON CONFLICT (shop, shopify_product_id, (COALESCE(shopify_variant_id, 0)), (COALESCE(variant_group, '')))
       DO UPDATE
         SET state = 'pending-create', sku_id = NULL, kind = EXCLUDED.kind,
             supplier_sku = EXCLUDED.supplier_sku, parent_supplier_sku = EXCLUDED.parent_supplier_sku,
             updated_at = EXCLUDED.updated_at
         WHERE m.state IN ('pending-create', 'gone-from-catalog')
       RETURNING id::text AS id`,
      [
        intent.shop,
        intent.productId,
        intent.shopifyVariantId,
        intent.kind,
        intent.supplierSku,
        intent.parentSupplierSku,
        now,
        intent.variantGroup ?? null,
      ],
    );
    const id = result[0]?.id;
    if (id === undefined) {
      const existing = await this.rows.findOneBy({
        shop: intent.shop,
        shopifyProductId: intent.productId,
        shopifyVariantId: intent.shopifyVariantId ?? IsNull(),
        variantGroup: intent.variantGroup ?? IsNull(),
      });
      throw new SkuMapConflict(
        `${intent.shop}: product ${intent.productId}${intent.shopifyVariantId ? ` variant ${intent.shopifyVariantId}` : ''} is ${existing?.state ?? 'already mapped'}: it is never created again`,
      );
    }
  }

  /**
   * Resolves a pending create: the record exists with `skuId` (created now, or found by its
   * supplierSku after an ambiguous create). Idempotent for the same skuId; `applied` also stores
   * the record's snapshot. Throws `SkuMapConflict` when the row is not pending (nor live with this skuId).
   */
  async markLive(shop: string, supplierSku: string, skuId: string, applied?: AppliedRecord): Promise<void> {
    await this.update(
      shop,
      supplierSku,
      { state: 'live', skuId, ...(applied ? this.appliedColumns(applied) : {}) },
      {
        sql: "(state = 'pending-create' OR (state = 'live' AND sku_id = :skuId))",
        params: { skuId },
      },
    );
  }

  /** Stores what a live record now holds (after an update, or unchanged with a new configuration hash). */
  async saveSnapshot(shop: string, supplierSku: string, applied: AppliedRecord): Promise<void> {
    await this.update(shop, supplierSku, this.appliedColumns(applied), { sql: "state = 'live'", params: {} });
  }

  /** Marks records deleted on purpose (their catalog delete succeeded, or they never existed). */
  async tombstone(shop: string, supplierSkus: readonly string[]): Promise<number> {
    if (supplierSkus.length === 0) return 0;
    const now = new Date(this.clock.now());
    const result = await this.rows.update(
      { shop, supplierSku: In([...supplierSkus]), state: Not('tombstoned' satisfies SkuMapState) },
      { state: 'tombstoned', tombstonedAt: now, updatedAt: now },
    );
    return result.affected ?? 0;
  }

  /**
   * The distinct configurations the shop's records (rows that exist or are to be recreated) were
   * built with, for the drift check. Grouped in the database: records share a handful of
   * dependency lists, so a shop of 100,000 records is not read into memory at each check.
   */
  async configurationGroups(shop: string): Promise<ConfigurationGroup[]> {
    const rows: Array<{ dependencies: string[]; hash: string }> = await this.rows.query(
      `SELECT configuration_dependencies AS dependencies, configuration_hash AS hash
         FROM ${this.table}
        WHERE shop = $1 AND state IN ('live', 'gone-from-catalog') AND configuration_hash IS NOT NULL
        GROUP BY configuration_dependencies, configuration_hash`,
      [shop],
    );
    return rows.map((r) => ({ dependencies: r.dependencies, hash: r.hash }));
  }

  /** The products with a record built on one of `groups` (`configurationGroups`), by id. */
  async productsBuiltOn(shop: string, groups: readonly ConfigurationGroup[]): Promise<string[]> {
    if (groups.length === 0) return [];
    const rows: Array<{ product_id: string }> = await this.rows.query(
      `SELECT DISTINCT shopify_product_id::text AS product_id
         FROM ${this.table}
        WHERE shop = $1 AND state IN ('live', 'gone-from-catalog') AND configuration_hash IS NOT NULL
          AND (configuration_dependencies, configuration_hash) IN (
            SELECT d, h FROM unnest($2::jsonb[], $3::text[]) AS g(d, h))
        ORDER BY 1`,
      [shop, groups.map((g) => JSON.stringify(g.dependencies)), groups.map((g) => g.hash)],
    );
    return rows.map((r) => r.product_id);
  }

  /**
   * The products of the shop with catalog records (or records to recreate): what a scope change
   * or a collection walk compares with, since a product leaving the scope is one of them.
   */
  async syncedProducts(shop: string): Promise<Set<string>> {
    const rows: Array<{ product_id: string }> = await this.rows.query(
      `SELECT DISTINCT shopify_product_id::text AS product_id FROM ${this.table}
        WHERE shop = $1 AND state <> 'tombstoned'`,
      [shop],
    );
    return new Set(rows.map((r) => r.product_id));
  }

  /**
   * Removes rows whose records were deleted while the Shopify product lives on (it left the synced
   * statuses under the `delete` policy): if it comes back, it is created afresh.
   */
  async forget(shop: string, supplierSkus: readonly string[]): Promise<number> {
    if (supplierSkus.length === 0) return 0;
    const result = await this.rows.delete({ shop, supplierSku: In([...supplierSkus]) });
    return result.affected ?? 0;
  }

  /**
   * A record deleted in the catalog behind the connector (a PATCH answered 404): the row keeps its
   * supplierSku and snapshot, loses its skuId, and the next sync recreates it.
   */
  async markGone(shop: string, supplierSku: string): Promise<void> {
    await this.update(
      shop,
      supplierSku,
      { state: 'gone-from-catalog', skuId: null },
      { sql: "state IN ('live', 'gone-from-catalog')", params: {} },
    );
  }

  /**
   * Forgets what was last sent for one attribute of a live record (a drift report found it
   * changed in the catalog, and the operator chose to resync): the next sync sees no applied
   * value and sends the mapping's value again. Resolves to whether the row was live.
   */
  async forgetApplied(shop: string, supplierSku: string, attribute: string): Promise<boolean> {
    const [, affected] = (await this.rows.query(
      `UPDATE ${this.table} SET snapshot = snapshot - $3::text
        WHERE shop = $1 AND supplier_sku = $2 AND state = 'live'`,
      [shop, supplierSku, attribute],
    )) as [unknown, number];
    return affected > 0;
  }

  /** The Shopify product (decimal id) of each live mapped skuId among `skuIds` (the write-back's poll). */
  async productsOfSkuIds(shop: string, skuIds: readonly string[]): Promise<Map<string, string>> {
    const found = new Map<string, string>();
    for (let i = 0; i < skuIds.length; i += LOOKUP_CHUNK) {
      const rows = await this.rows.find({
        select: { skuId: true, shopifyProductId: true },
        where: { shop, state: 'live', skuId: In(skuIds.slice(i, i + LOOKUP_CHUNK)) },
      });
      for (const row of rows) if (row.skuId !== null) found.set(row.skuId, row.shopifyProductId);
    }
    return found;
  }

  /**
   * One keyset page of the shop's live mapped skuIds, ascending, after `after` (null: from the
   * first): the write-back's re-walk of every mapped record.
   */
  async liveSkuIdsAfter(shop: string, after: string | null, limit: number): Promise<string[]> {
    const rows = await this.rows
      .createQueryBuilder('r')
      .select('r.skuId', 'skuId')
      .where('r.shop = :shop AND r.state = :live AND r.skuId IS NOT NULL', { shop, live: 'live' })
      .andWhere(after === null ? 'TRUE' : 'r.skuId > :after', { after })
      .orderBy('r.skuId', 'ASC')
      .limit(limit)
      .getRawMany<{ skuId: string }>();
    return rows.map((r) => r.skuId);
  }

  /**
   * Which of `shops` had a sync apply a live record after `since`? (Their enrichment may still be
   * under way: the enrichment poll comes sooner while so, `EarlyPolls`.) One statement for all:
   * a poll of 200 shops asks after every poll.
   */
  async appliedSince(shops: readonly string[], since: Date): Promise<Set<string>> {
    if (shops.length === 0) return new Set();
    const rows: Array<{ shop: string }> = await this.rows.query(
      `SELECT s.shop FROM unnest($1::text[]) AS s(shop)
        WHERE EXISTS (SELECT 1 FROM ${this.rows.metadata.tablePath} r
                       WHERE r.shop = s.shop AND r.state = 'live' AND r.applied_at > $2)`,
      [[...shops], since],
    );
    return new Set(rows.map((row) => row.shop));
  }

  /** The live mapped skuIds (the product's own and its variants') of each of `productIds`. */
  async skuIdsOfProducts(shop: string, productIds: readonly string[]): Promise<Map<string, string[]>> {
    const found = new Map<string, string[]>();
    for (let i = 0; i < productIds.length; i += LOOKUP_CHUNK) {
      const rows = await this.rows.find({
        select: { skuId: true, shopifyProductId: true },
        where: { shop, state: 'live', shopifyProductId: In(productIds.slice(i, i + LOOKUP_CHUNK)) },
      });
      for (const row of rows) {
        if (row.skuId === null) continue;
        found.set(row.shopifyProductId, [...(found.get(row.shopifyProductId) ?? []), row.skuId]);
      }
    }
    return found;
  }

  /**
   * The products an operator's id names (a supplierSku, a skuId or a Shopify product id), at most
   * `limit`, in `shop` when given.
   */
  async productsNamed(
    id: string,
    shop: string | null,
    productId: string | null,
    limit: number,
  ): Promise<Array<{ shop: string; productId: string }>> {
    const rows: Array<{ shop: string; product_id: string }> = await this.rows.query(
      `SELECT DISTINCT shop, shopify_product_id::text AS product_id FROM ${this.table}
        WHERE ($2::text IS NULL OR shop = $2)
          AND (supplier_sku = $1 OR sku_id = $1 OR ($3::bigint IS NOT NULL AND shopify_product_id = $3::bigint))
        LIMIT $4`,
      [id, shop, productId, limit],
    );
    return rows.map((r) => ({ shop: r.shop, productId: r.product_id }));
  }

  /**
   * One conditional `UPDATE` (a sync writes its rows in one round trip each): the row of
   * `supplierSku` changes when `allowed` holds; otherwise a read says why
   * (`SkuMapConflict`; `allowed` is SQL on the row's columns). PostgreSQL re-checks the condition on the newest row version when another
   * writer held it, as the locked read-then-write it replaced did.
   */
  private async update(
    shop: string,
    supplierSku: string,
    changes: Partial<SkuMapRow>,
    allowed: { sql: string; params: Record<string, unknown> },
  ): Promise<void> {
    const result = await this.rows
      .createQueryBuilder()
      .update(SkuMapRow)
      .set({ ...changes, updatedAt: new Date(this.clock.now()) })
      .where('shop = :shop AND supplier_sku = :supplierSku', { shop, supplierSku })
      .andWhere(allowed.sql, allowed.params)
      .execute();
    if ((result.affected ?? 0) > 0) return;
    const row = await this.rows.findOneBy({ shop, supplierSku });
    if (!row) throw new SkuMapConflict(`${shop}: no sku map row for supplierSku ${supplierSku}`);
    throw new SkuMapConflict(
      `${shop}: supplierSku ${supplierSku} is ${row.state}${row.skuId ? ` (skuId ${row.skuId})` : ''}`,
    );
  }

  private appliedColumns(applied: AppliedRecord): Partial<SkuMapRow> {
    return {
      kind: applied.kind,
      ...(applied.variantGroup !== undefined ? { variantGroup: applied.variantGroup } : {}),
      parentSupplierSku: applied.parentSupplierSku,
      snapshot: applied.snapshot,
      configurationDependencies: applied.configuration ? [...applied.configuration.dependencies] : null,
      configurationHash: applied.configuration?.hash ?? null,
      shopifyUpdatedAt: applied.shopifyUpdatedAt === null ? null : new Date(applied.shopifyUpdatedAt),
      gaps: [...applied.gaps],
      notes: [...(applied.notes ?? [])],
      appliedAt: new Date(this.clock.now()),
    };
  }

  private get table(): string {
    return this.rows.metadata.tablePath;
  }
}

/** The planner's view of a product's rows (`PlanInput.stored`): every row not tombstoned. */
export function storedRecordsOf(rows: readonly SkuMapRow[]): StoredRecord[] {
  return rows
    .filter((r) => r.state !== 'tombstoned')
    .map((r) => ({
      kind: r.kind,
      shopifyVariantId: r.shopifyVariantId,
      supplierSku: r.supplierSku,
      skuId: r.skuId,
      snapshot: r.snapshot,
      parentSupplierSku: r.parentSupplierSku,
      variantGroup: r.variantGroup,
    }));
}
