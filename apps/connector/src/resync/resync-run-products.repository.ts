import type { Repository } from 'typeorm';
import type { Clock } from '#lib/clock';
import type { FailuresRepository } from '../platform/failures/failures.repository.js';
import { JobName } from '../platform/queues/queue-names.js';
import { pruneInBatches } from '../platform/reporting/retention-registry.service.js';
import type { PlannedWrite } from '../product-sync/planned/planned-writes.repository.js';
import type { SyncRecords } from '../product-sync/sync-records.repository.js';
import type { ResyncRun } from './resync-run.entity.js';

/** A run's product counts: `failed` are listed products whose sync failed for good since they were enqueued. */
export interface RunCounts {
  listed: number;
  done: number;
  failed: number;
  /** Listed, neither done nor failed. */
  waiting: number;
  /** Catalog calls per synced product so far (from the sync records); null before the first. */
  callsPerProduct: number | null;
}

/** What a dry run keeps of one product's plan (`ProductDryRun`): the calls live would send. */
export interface RunProductPlan {
  found: boolean;
  result: string;
  detail: string | null;
  writes: PlannedWrite[];
}

/** A dry run's plan in numbers: products planned, those with calls, and the calls by kind. */
export interface RunPlanCounts {
  products: number;
  changed: number;
  /** Catalog record creates (POSTs but image uploads). */
  creates: number;
  /** Image uploads the media job would make (`uploadImage`). */
  uploads: number;
  patches: number;
  deletes: number;
  total: number;
}

/**
 * Why: the products each resync run listed (`resync_run_products`), apart from the runs
 * themselves: a run's progress is counted from them (`done` when the product's sync reported
 * back through `SyncEvents`, `failed` when the failures table holds an open sync failure of the
 * product recorded after it was enqueued), and a dry run keeps each product's plan in them. It
 * is `ResyncRunsRepository.products` (the rows belong to their run; one pair of repositories on
 * the same connection).
 */
export class ResyncRunProductsRepository {
  constructor(
    private readonly runs: Repository<ResyncRun>,
    private readonly clock: Clock,
    private readonly failures: FailuresRepository,
    private readonly syncRecords: SyncRecords,
  ) {}

  /** `shop/redact`: deletes the shop's rows; resolves to how many went. */
  async purgeShop(shop: string): Promise<number> {
    const [, products] = (await this.runs.query(`DELETE FROM ${this.productsTable} WHERE shop = $1`, [
      shop,
    ])) as [unknown, number];
    return products;
  }

  /**
   * Records a page's products as the run's (before they are enqueued, so a sync that reports
   * back at once is counted); listing a product twice is harmless.
   */
  async listProducts(run: Pick<ResyncRun, 'id' | 'shop'>, productIds: readonly string[]): Promise<void> {
    if (productIds.length === 0) return;
    await this.runs.query(
      `INSERT INTO ${this.productsTable} (run_id, shop, product_id, enqueued_at)
       SELECT $1, $2, unnest($3::bigint[]), $4
       ON CONFLICT (run_id, product_id) DO NOTHING`,
      [run.id, run.shop, [...productIds], new Date(this.clock.now())],
    );
  }

  /** Products running runs listed and have not heard back from, after `after`, at most `limit`. */
  async queuedProducts(
    after: { shop: string; productId: string },
    limit: number,
  ): Promise<Array<{ shop: string; productId: string }>> {
    const rows: Array<{ shop: string; product_id: string }> = await this.runs.query(
      `SELECT DISTINCT p.shop, p.product_id::text AS product_id
         FROM ${this.productsTable} p JOIN ${this.runsTable} r ON r.id = p.run_id
        WHERE p.state = 'queued' AND r.state = 'running' AND NOT r.dry_run AND (p.shop, p.product_id) > ($1, $2::bigint)
        ORDER BY p.shop, product_id LIMIT $3`,
      [after.shop, after.productId, limit],
    );
    return rows.map((row) => ({ shop: row.shop, productId: row.product_id }));
  }

  /**
   * Whether a running (not dry) run listed the product and has not heard back from its sync: the
   * product's next sync must read it, whatever the reason of the job the run's request joined.
   */
  async awaitsSync(shop: string, productId: string): Promise<boolean> {
    const rows: Array<{ awaits: boolean }> = await this.runs.query(
      `SELECT EXISTS (
         SELECT 1 FROM ${this.productsTable} p JOIN ${this.runsTable} r ON r.id = p.run_id
          WHERE p.shop = $1 AND p.product_id = $2 AND p.state = 'queued' AND r.state = 'running'
            AND NOT r.dry_run) AS awaits`,
      [shop, productId],
    );
    return rows[0]?.awaits === true;
  }

  /** Marks the waiting products of running runs done: their sync reported back (a dry run's wait for their plan). */
  async productSynced(shop: string, productId: string): Promise<void> {
    await this.runs.query(
      `UPDATE ${this.productsTable} AS p SET state = 'done', done_at = $3
         FROM ${this.runsTable} r
        WHERE p.shop = $1 AND p.product_id = $2 AND p.state = 'queued' AND r.id = p.run_id AND r.state = 'running'
          AND NOT r.dry_run`,
      [shop, productId, new Date(this.clock.now())],
    );
  }

  async counts(runId: string): Promise<RunCounts> {
    const rows: Array<{ listed: string; done: string; failed: string }> = await this.runs.query(
      `SELECT count(*)::text AS listed,
              count(*) FILTER (WHERE p.state = 'done')::text AS done,
              count(*) FILTER (WHERE p.state = 'queued' AND ${this.failures.openFailureExists(
                JobName.SYNC_PRODUCT,
                {
                  shop: 'p.shop',
                  subjectKey: 'p.product_id::text',
                  failedSince: 'p.enqueued_at',
                },
              )})::text AS failed
         FROM ${this.productsTable} p WHERE p.run_id = $1`,
      [runId],
    );
    const row = rows[0] ?? { listed: '0', done: '0', failed: '0' };
    const [listed, done, failed] = [Number(row.listed), Number(row.done), Number(row.failed)];
    return {
      listed,
      done,
      failed,
      waiting: listed - done - failed,
      callsPerProduct: await this.callsPerProduct(runId),
    };
  }

  /** The average catalog calls of the run's products' syncs since they were enqueued (a dry run: of their plans). */
  private async callsPerProduct(runId: string): Promise<number | null> {
    const rows: Array<{ average: string | null }> = await this.runs.query(
      `SELECT coalesce(
                (SELECT avg(jsonb_array_length(p.plan->'writes')) FROM ${this.productsTable} p
                  WHERE p.run_id = $1 AND p.plan IS NOT NULL),
                avg(r.calls))::text AS average
         FROM ${this.productsTable} p
         JOIN ${this.syncRecords.runsSql()} r
           ON r.shop = p.shop AND r.product_id = p.product_id AND r.started_at >= p.enqueued_at
        WHERE p.run_id = $1 AND p.state = 'done' AND r.outcome <> 'failed'`,
      [runId],
    );
    const average = rows[0]?.average ?? null;
    return average === null ? null : Number(average);
  }

  /** Of `productIds`, those the dry run has not planned yet (a retried page plans only them). */
  async unplanned(runId: string, productIds: readonly string[]): Promise<string[]> {
    const rows: Array<{ product_id: string }> = await this.runs.query(
      `SELECT product_id::text AS product_id FROM ${this.productsTable}
        WHERE run_id = $1 AND product_id = ANY($2::bigint[]) AND plan IS NULL`,
      [runId, [...productIds]],
    );
    const left = new Set(rows.map((row) => row.product_id));
    return productIds.filter((id) => left.has(id));
  }

  /** A dry run's plan of one product: kept in the run, the product done. */
  async recordPlan(runId: string, productId: string, plan: RunProductPlan): Promise<void> {
    await this.runs.query(
      `UPDATE ${this.productsTable} SET plan = $3::jsonb, state = 'done', done_at = $4
        WHERE run_id = $1 AND product_id = $2`,
      [runId, productId, JSON.stringify(plan), new Date(this.clock.now())],
    );
  }

  /** A dry run's plans with at least one call, by product id after `after`, at most `limit`. */
  async plans(
    runId: string,
    after: string,
    limit: number,
  ): Promise<Array<RunProductPlan & { productId: string }>> {
    const rows: Array<{ product_id: string; plan: RunProductPlan }> = await this.runs.query(
      `SELECT product_id::text AS product_id, plan FROM ${this.productsTable}
        WHERE run_id = $1 AND plan IS NOT NULL AND jsonb_array_length(plan->'writes') > 0 AND product_id > $2::bigint
        ORDER BY product_id LIMIT $3`,
      [runId, after, limit],
    );
    return rows.map((row) => ({ productId: row.product_id, ...row.plan }));
  }

  /** A dry run's whole plan counted: products planned, those with calls, and the calls by method. */
  async planCounts(runId: string): Promise<RunPlanCounts> {
    type Row = { planned: number; changed: number; post: number; upload: number; patch: number; del: number };
    const rows: Row[] = await this.runs.query(
      `SELECT count(*)::int AS planned,
                count(*) FILTER (WHERE jsonb_array_length(p.plan->'writes') > 0)::int AS changed,
                coalesce(sum(w.post), 0)::int AS post, coalesce(sum(w.upload), 0)::int AS upload,
                coalesce(sum(w.patch), 0)::int AS patch, coalesce(sum(w.del), 0)::int AS del
           FROM ${this.productsTable} p
           CROSS JOIN LATERAL (
             SELECT count(*) FILTER (WHERE c->>'method' = 'POST' AND c->>'kind' <> 'uploadImage') AS post,
                    count(*) FILTER (WHERE c->>'kind' = 'uploadImage') AS upload,
                    count(*) FILTER (WHERE c->>'method' = 'PATCH') AS patch,
                    count(*) FILTER (WHERE c->>'method' = 'DELETE') AS del
               FROM jsonb_array_elements(p.plan->'writes') c) w
          WHERE p.run_id = $1 AND p.plan IS NOT NULL`,
      [runId],
    );
    const row = rows[0] ?? { planned: 0, changed: 0, post: 0, upload: 0, patch: 0, del: 0 };
    return {
      products: row.planned,
      changed: row.changed,
      creates: row.post,
      uploads: row.upload,
      patches: row.patch,
      deletes: row.del,
      total: row.post + row.upload + row.patch + row.del,
    };
  }

  /**
   * Retention: deletes the products of runs that ended (`done` or `cancelled`) before `before`,
   * in batches; resolves to how many rows went. Failed runs are kept: their replay reopens them.
   */
  async pruneFinishedProductsBefore(before: Date): Promise<number> {
    return pruneInBatches(async (limit) => {
      const [, affected]: [unknown, number] = await this.runs.query(
        `DELETE FROM ${this.productsTable} WHERE (run_id, product_id) IN (
           SELECT p.run_id, p.product_id FROM ${this.productsTable} p JOIN ${this.runsTable} r ON r.id = p.run_id
            WHERE r.state IN ('done', 'cancelled') AND r.finished_at < $1 LIMIT $2)`,
        [before, limit],
      );
      return affected;
    });
  }

  private get runsTable(): string {
    return this.runs.metadata.tablePath;
  }

  private get productsTable(): string {
    return this.runs.metadata.tablePath.replace(/resync_runs$/, 'resync_run_products');
  }
}
