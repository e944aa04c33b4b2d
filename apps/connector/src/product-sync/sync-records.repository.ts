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
  /** The product's title when the run read it; null otherwise. */
  title?: string | null;
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
   * The runs as a run history classifies them (an SQL relation other tables' statements join):
   * `id`, `shop`, `product_id`, `outcome`, `started_at`, `title`, `error_code`, `error_message`,
   * and `wrote`: `create` when the run created a catalog record (a 2xx POST of a product or a
   * variant), `update` when it changed one or removed a variant (a 2xx PATCH or DELETE), else null.
   */
  outcomesSql(): string {
    const wrote = (methods: string, paths: string) =>
      `EXISTS (SELECT 1 FROM jsonb_array_elements(calls) c WHERE c->>'method' IN (${methods})${paths}
                  AND (c->>'status')::int BETWEEN 200 AND 299)`;
    return `(SELECT id, shop, product_id, outcome, started_at, title,
                    error->>'code' AS error_code, error->>'message' AS error_message,
                    CASE WHEN ${wrote("'POST'", " AND c->>'path' IN ('/v1/products', '/v1/variants')")} THEN 'create'
                         WHEN ${wrote("'PATCH', 'DELETE'", '')} THEN 'update' END AS wrote
               FROM ${this.rows.metadata.tablePath})`;
  }

  /** Per shop, when its latest run that did not fail finished (the overview's "last sync"); absent: none kept. */
  async lastSucceeded(shops: readonly string[]): Promise<Map<string, Date>> {
    const rows: Array<{ shop: string; at: Date | null }> = await this.rows.query(
      `SELECT s.shop, (SELECT max(r.finished_at) FROM ${this.rows.metadata.tablePath} r
                        WHERE r.shop = s.shop AND r.outcome <> 'failed') AS at
         FROM unnest($1::text[]) AS s(shop)`,
      [[...shops]],
    );
    return new Map(rows.flatMap((row) => (row.at === null ? [] : [[row.shop, new Date(row.at)]])));
  }

  /** Of `productIds`, the title each product had when a run last read it (lists show it beside the id). */
  async titles(shop: string, productIds: readonly string[]): Promise<Map<string, string>> {
    if (productIds.length === 0) return new Map();
    const rows: Array<{ id: string; title: string | null }> = await this.rows.query(
      `SELECT p.id::text AS id,
              (SELECT r.title FROM ${this.rows.metadata.tablePath} r
                WHERE r.shop = $1 AND r.product_id = p.id AND r.title IS NOT NULL ORDER BY r.id DESC LIMIT 1) AS title
         FROM unnest($2::bigint[]) AS p(id)`,
      [shop, [...new Set(productIds)]],
    );
    return new Map(rows.flatMap((row) => (row.title === null ? [] : [[row.id, row.title]])));
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
    title: row.title,
    startedAt: row.startedAt,
    finishedAt: row.finishedAt,
  };
}
