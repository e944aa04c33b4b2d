import type { Repository } from 'typeorm';
import type { FailuresRepository } from '../platform/failures/failures.repository.js';
import { JobName } from '../platform/queues/queue-names.js';
import type { SyncRecords } from '../product-sync/sync-records.repository.js';
import type { ResyncRun } from './resync-run.entity.js';

/**
 * A run's products by what their sync did (the run history's counts): `created` a catalog record,
 * `updated` one (or removed a variant), `deleted` the product's records (gone from Shopify),
 * `skipped` (nothing to send: unchanged, out of scope, no mapping), `failed` for good; a dry run
 * counts what its plans would do.
 */
export interface RunOutcomeCounts {
  listed: number;
  created: number;
  updated: number;
  deleted: number;
  failed: number;
  skipped: number;
  /** Listed, neither done nor failed (yet, or ever: a cancelled run's products not reached). */
  waiting: number;
}

/** One product of a run whose sync failed, as the run's error report lists it. */
export interface FailedRunProduct {
  productId: string;
  /** The product's title when a run of its sync read it; null when none did. */
  title: string | null;
  /** The failed run's error code; null when its sync left no record (see the failures inbox). */
  errorCode: string | null;
  errorMessage: string | null;
  /** When its failed run started; null without a record. */
  failedAt: Date | null;
}

type OutcomeKind = keyof Omit<RunOutcomeCounts, 'listed'>;
const KINDS: readonly OutcomeKind[] = ['created', 'updated', 'deleted', 'failed', 'skipped', 'waiting'];

/**
 * Why: a run's history needs each listed product's outcome, recoverable from what is stored: the
 * product's sync record of the run (the last one that started between its enqueueing and its
 * `done`, or the run's end) says what the sync sent; a product still queued failed when an open
 * failure of its sync is newer than its enqueueing, or, once the run ended, when that record
 * failed; a dry run's plan says what it would send. One statement per page of runs. It is
 * `ResyncRunsRepository.outcomes` (a part of the `resync_run_products` owner, split for size).
 */
export class ResyncRunOutcomesRepository {
  constructor(
    private readonly runs: Repository<ResyncRun>,
    private readonly failures: FailuresRepository,
    private readonly syncRecords: SyncRecords,
  ) {}

  /** Each run's outcome counts (a run without products: zeros). */
  async counts(runIds: readonly string[]): Promise<Map<string, RunOutcomeCounts>> {
    const counts = new Map<string, RunOutcomeCounts>(
      runIds.map((id) => [
        id,
        { listed: 0, created: 0, updated: 0, deleted: 0, failed: 0, skipped: 0, waiting: 0 },
      ]),
    );
    if (runIds.length === 0) return counts;
    const rows: Array<{ run_id: string; kind: OutcomeKind; n: number }> = await this.runs.query(
      `SELECT c.run_id::text AS run_id, c.kind, count(*)::int AS n FROM (${this.classified()}) c
        GROUP BY c.run_id, c.kind`,
      [[...runIds]],
    );
    for (const row of rows) {
      const run = counts.get(row.run_id);
      if (!run || !KINDS.includes(row.kind)) continue;
      run[row.kind] += row.n;
      run.listed += row.n;
    }
    return counts;
  }

  /** The run's failed products by product id, at most `limit`, with their last known title. */
  async failedProducts(runId: string, limit: number): Promise<FailedRunProduct[]> {
    const rows: Array<{
      product_id: string;
      title: string | null;
      error_code: string | null;
      error_message: string | null;
      failed_at: Date | null;
    }> = await this.runs.query(
      `SELECT c.product_id::text AS product_id, c.error_code, c.error_message, c.started_at AS failed_at,
              coalesce(c.title, (SELECT t.title FROM ${this.syncRecords.outcomesSql()} t
                                  WHERE t.shop = c.shop AND t.product_id = c.product_id AND t.title IS NOT NULL
                                  ORDER BY t.id DESC LIMIT 1)) AS title
         FROM (${this.classified()}) c
        WHERE c.kind = 'failed' ORDER BY c.product_id LIMIT $2`,
      [[runId], limit],
    );
    return rows.map((row) => ({
      productId: row.product_id,
      title: row.title,
      errorCode: row.error_code,
      errorMessage: row.error_message,
      failedAt: row.failed_at === null ? null : new Date(row.failed_at),
    }));
  }

  /** Each product of the runs `$1` (bigint[]) with its outcome (`kind`) and its run's record. */
  private classified(): string {
    const openFailure = this.failures.openFailureExists(JobName.SYNC_PRODUCT, {
      shop: 'p.shop',
      subjectKey: 'p.product_id::text',
      failedSince: 'p.enqueued_at',
    });
    const planned = (condition: string) =>
      `EXISTS (SELECT 1 FROM jsonb_array_elements(p.plan->'writes') w WHERE ${condition})`;
    return `SELECT p.run_id, p.shop, p.product_id, rec.title, rec.error_code, rec.error_message, rec.started_at,
              CASE
                WHEN p.state = 'queued' AND (${openFailure} OR (r.state <> 'running' AND rec.outcome = 'failed'))
                  THEN 'failed'
                WHEN p.state = 'queued' THEN 'waiting'
                WHEN r.dry_run THEN CASE
                  WHEN p.plan IS NULL THEN 'skipped'
                  WHEN ${planned(`w->>'method' = 'POST' AND w->>'kind' <> 'uploadImage'`)} THEN 'created'
                  WHEN p.plan->>'found' = 'false' AND ${planned(`w->>'method' = 'DELETE'`)} THEN 'deleted'
                  WHEN jsonb_array_length(p.plan->'writes') > 0 THEN 'updated'
                  ELSE 'skipped' END
                WHEN rec.outcome IN ('deleted', 'not_found', 'tombstoned') THEN 'deleted'
                WHEN rec.wrote = 'create' THEN 'created'
                WHEN rec.wrote = 'update' THEN 'updated'
                ELSE 'skipped'
              END AS kind
         FROM ${this.productsTable} p JOIN ${this.runsTable} r ON r.id = p.run_id
         LEFT JOIN LATERAL (
           SELECT s.outcome, s.wrote, s.title, s.error_code, s.error_message, s.started_at
             FROM ${this.syncRecords.outcomesSql()} s
            WHERE NOT r.dry_run AND s.shop = p.shop AND s.product_id = p.product_id
              AND s.started_at >= p.enqueued_at
              AND s.started_at <= coalesce(p.done_at, r.finished_at, 'infinity'::timestamptz)
            ORDER BY s.started_at DESC, s.id DESC LIMIT 1) rec ON true
        WHERE p.run_id = ANY($1::bigint[])`;
  }

  private get runsTable(): string {
    return this.runs.metadata.tablePath;
  }

  private get productsTable(): string {
    return this.runs.metadata.tablePath.replace(/resync_runs$/, 'resync_run_products');
  }
}
