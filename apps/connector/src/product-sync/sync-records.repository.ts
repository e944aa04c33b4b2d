import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import type { Repository } from 'typeorm';
import { pruneInBatches } from '../platform/reporting/retention-registry.service.js';
import type { CatalogCallRecord } from './apply/catalog-call-record.js';
import { SyncRecordRow } from './sync-record.entity.js';

/** A finished run, as the job writes it. */
export interface NewSyncRecord {
  shop: string;
  productId: string;
  jobId: string | null;
  reason: string;
  outcome: string;
  detail: string | null;
  calls: CatalogCallRecord[];
  events: string[];
  error: { code: string; message: string } | null;
  startedAt: Date;
  finishedAt: Date;
}

/** A run as the admin API and tests read it (never the entity itself). */
export interface SyncRecordView extends NewSyncRecord {
  id: string;
}

/** One run as a list shows it: its catalog calls counted, its error's code. */
export interface SyncRecordLine {
  id: string;
  shop: string;
  productId: string;
  reason: string;
  outcome: string;
  detail: string | null;
  calls: number;
  errorCode: string | null;
  finishedAt: Date;
}

/**
 * The record of every product sync: written once per run by the sync job (failed runs too), read
 * as the product's timeline by the admin API and by tests, pruned by age.
 */
@Injectable()
export class SyncRecords {
  constructor(@InjectRepository(SyncRecordRow) private readonly rows: Repository<SyncRecordRow>) {}

  /**
   * The runs as other tables' statements join them (an SQL relation: `shop`, `product_id`,
   * `outcome`, `started_at`, `finished_at`, and `calls`, the number of catalog calls): a resync
   * run's average calls per product, the media runs a lost queue misses, in their one statement.
   */
  runsSql(): string {
    return `(SELECT shop, product_id, outcome, started_at, finished_at, jsonb_array_length(calls) AS calls
               FROM ${this.rows.metadata.tablePath})`;
  }

  /**
   * Of `products`, those with a synced run that started at or after the time given with each
   * (the reconciler's "seen" for a product updated in the second it was last applied).
   */
  async syncedFrom(
    shop: string,
    products: ReadonlyArray<{ productId: string; from: Date }>,
  ): Promise<Set<string>> {
    if (products.length === 0) return new Set();
    const rows: Array<{ id: string }> = await this.rows.query(
      `SELECT DISTINCT p.id::text AS id
         FROM unnest($2::bigint[], $3::timestamptz[]) AS p(id, started_from)
        WHERE EXISTS (
                SELECT 1 FROM ${this.rows.metadata.tablePath} r
                 WHERE r.shop = $1 AND r.product_id = p.id AND r.outcome = 'synced'
                   AND r.started_at >= p.started_from)`,
      [shop, products.map((p) => p.productId), products.map((p) => p.from)],
    );
    return new Set(rows.map((r) => r.id));
  }

  /** `shop/redact`: deletes every row of the shop (`ShopDataRegistry`); resolves to how many went. */
  async purgeShop(shop: string): Promise<number> {
    return (await this.rows.delete({ shop })).affected ?? 0;
  }

  async add(record: NewSyncRecord): Promise<void> {
    await this.rows.insert(record);
  }

  /** The product's runs, newest first. */
  async ofProduct(shop: string, productId: string, limit = 50): Promise<SyncRecordView[]> {
    const rows = await this.rows.find({
      where: { shop, productId },
      order: { id: 'DESC' },
      take: limit,
    });
    return rows.map(view);
  }

  /**
   * The latest runs finished since `since`, of one shop and outcome when given, newest first
   * (the web view's sync records list): without their calls, only how many there were.
   */
  async latest(
    filter: { shop: string | null; outcome: string | null; since: Date },
    limit: number,
  ): Promise<SyncRecordLine[]> {
    const rows: Array<Omit<SyncRecordLine, 'calls'> & { calls: string }> = await this.rows.query(
      `SELECT id::text AS id, shop, product_id::text AS "productId", reason, outcome, detail,
              jsonb_array_length(calls)::text AS calls, error->>'code' AS "errorCode", finished_at AS "finishedAt"
         FROM ${this.rows.metadata.tablePath}
        WHERE finished_at >= $1 AND ($2::text IS NULL OR shop = $2) AND ($3::text IS NULL OR outcome = $3)
        ORDER BY finished_at DESC, id DESC LIMIT $4`,
      [filter.since, filter.shop, filter.outcome, limit],
    );
    return rows.map((row) => ({ ...row, calls: Number(row.calls), finishedAt: new Date(row.finishedAt) }));
  }

  /** Deletes runs finished before `before` (retention), in batches; returns how many. */
  async pruneFinishedBefore(before: Date): Promise<number> {
    const table = this.rows.metadata.tablePath;
    return pruneInBatches(async (limit) => {
      const [, affected]: [unknown, number] = await this.rows.query(
        `DELETE FROM ${table} WHERE id IN (SELECT id FROM ${table} WHERE finished_at < $1 LIMIT $2)`,
        [before, limit],
      );
      return affected;
    });
  }
}

function view(row: SyncRecordRow): SyncRecordView {
  return {
    id: row.id,
    shop: row.shop,
    productId: row.productId,
    jobId: row.jobId,
    reason: row.reason,
    outcome: row.outcome,
    detail: row.detail,
    calls: row.calls,
    events: row.events,
    error: row.error,
    startedAt: row.startedAt,
    finishedAt: row.finishedAt,
  };
}
