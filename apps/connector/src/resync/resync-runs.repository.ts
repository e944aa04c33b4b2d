import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { In, type Repository } from 'typeorm';
import { Clock } from '#lib/clock';
import type { BulkAttempt } from '../clients/shopify/bulk-product.reader.js';
import { FailuresRepository } from '../platform/failures/failures.repository.js';
import { pruneInBatches } from '../platform/reporting/retention-registry.service.js';
import { SyncRecords } from '../product-sync/sync-records.repository.js';
import { type ResyncReadMode, ResyncRun, type ResyncScope } from './resync-run.entity.js';
import { ResyncRunOutcomesRepository } from './resync-run-outcomes.repository.js';
import { ResyncRunProductsRepository } from './resync-run-products.repository.js';

/**
 * Why: the resync runs' table (`resync_runs`): a run's scope, state, cursor and read mode. The
 * products each run listed, its progress and a dry run's plans are `products`
 * (`ResyncRunProductsRepository`, the `resync_run_products` table).
 */
@Injectable()
export class ResyncRunsRepository {
  /** The products each run listed (their progress, a dry run's plans). */
  readonly products: ResyncRunProductsRepository;
  /** What each listed product's sync did (the run history's counts and error report). */
  readonly outcomes: ResyncRunOutcomesRepository;

  constructor(
    @InjectRepository(ResyncRun) private readonly runs: Repository<ResyncRun>,
    private readonly clock: Clock,
    failures: FailuresRepository,
    syncRecords: SyncRecords,
  ) {
    this.products = new ResyncRunProductsRepository(runs, clock, failures, syncRecords);
    this.outcomes = new ResyncRunOutcomesRepository(runs, failures, syncRecords);
  }

  /** `shop/redact`: deletes every row of the shop, its runs' products too (`ShopDataRegistry`); resolves to how many went. */
  async purgeShop(shop: string): Promise<number> {
    const products = await this.products.purgeShop(shop);
    return products + ((await this.runs.delete({ shop })).affected ?? 0);
  }

  /** The shops that have had a resync run (kept by retention's own rules), for the operator's next step. */
  async shopsWithRuns(): Promise<Set<string>> {
    const rows = (await this.runs.query(
      `SELECT DISTINCT shop FROM ${this.runs.metadata.tablePath}`,
    )) as Array<{ shop: string }>;
    return new Set(rows.map((row) => row.shop));
  }

  /**
   * A new running run; a one-product run lists its product at once (its walk is done, but for a
   * dry run: its one page job plans it). A reconciliation's run lists what it finds.
   */
  async create(
    shop: string,
    productId: string | null,
    options: { dryRun?: boolean; reconcile?: boolean } = {},
  ): Promise<ResyncRun> {
    const now = new Date(this.clock.now());
    const dryRun = options.dryRun === true;
    const run = await this.runs.save(
      this.runs.create({
        shop,
        scope: options.reconcile ? 'reconcile' : productId === null ? 'shop' : 'product',
        productId,
        state: 'running',
        cursor: null,
        pages: 0,
        listed: 0,
        walkDone: productId !== null && !dryRun,
        error: null,
        dryRun,
        readMode: null,
        bulkAttempts: [],
        createdAt: now,
        updatedAt: now,
        finishedAt: null,
      }),
    );
    if (productId !== null) {
      await this.products.listProducts(run, [productId]);
      await this.runs.update({ id: run.id }, { listed: 1 });
      run.listed = 1;
    }
    return run;
  }

  /** The newest runs first, of one shop (or every shop) and of the scopes given, at most `limit` (the run history). */
  latest(
    filter: { shop: string | null; scopes: readonly ResyncScope[] },
    limit: number,
  ): Promise<ResyncRun[]> {
    return this.runs.find({
      where: { ...(filter.shop === null ? {} : { shop: filter.shop }), scope: In([...filter.scopes]) },
      order: { createdAt: 'DESC', id: 'DESC' },
      take: limit,
    });
  }

  get(id: string): Promise<ResyncRun | null> {
    return this.runs.findOneBy({ id });
  }

  /** Runs still walking (whole shops, reconciliations, one-product dry runs): resumed at boot from their cursor. */
  walking(): Promise<ResyncRun[]> {
    return this.runs.find({ where: { state: 'running', walkDone: false }, order: { id: 'ASC' } });
  }

  /**
   * Moves the run's cursor past a page whose products are listed and enqueued. Only from the
   * cursor the page started at, and only while the run is running: false when the run was
   * cancelled meanwhile, or another worker already moved it (the page is then not counted twice).
   */
  async advance(runId: string, from: string | null, to: string | null, last: boolean): Promise<boolean> {
    const result: [unknown[], number] = await this.runs.query(
      `UPDATE ${this.runsTable} AS r
          SET cursor = $3, pages = r.pages + 1, walk_done = $4, updated_at = $5,
              listed = (SELECT count(*) FROM ${this.productsTable} p WHERE p.run_id = r.id)
        WHERE r.id = $1 AND r.state = 'running' AND r.cursor IS NOT DISTINCT FROM $2`,
      [runId, from, to, last, new Date(this.clock.now())],
    );
    return result[1] === 1;
  }

  /** Records how the run reads the shop, and appends bulk attempts to its list. */
  async readWith(runId: string, readMode: ResyncReadMode, bulkAttempts: BulkAttempt[] = []): Promise<void> {
    await this.runs.query(
      `UPDATE ${this.runsTable} SET read_mode = $2, bulk_attempts = bulk_attempts || $3::jsonb, updated_at = $4
        WHERE id = $1`,
      [runId, readMode, JSON.stringify(bulkAttempts), new Date(this.clock.now())],
    );
  }

  /** Runs still walking Shopify's pages (they resume from their cursor). */
  walkingRuns(): Promise<number> {
    return this.runs.count({ where: { state: 'running', walkDone: false } });
  }

  /** Ends a running run (`done`, `cancelled` or `failed`); false when it was no longer running. */
  async finish(
    runId: string,
    state: 'done' | 'cancelled' | 'failed',
    error: string | null = null,
  ): Promise<boolean> {
    const now = new Date(this.clock.now());
    const result = await this.runs.update(
      { id: runId, state: 'running' },
      { state, error, finishedAt: now, updatedAt: now },
    );
    return (result.affected ?? 0) === 1;
  }

  /** A failed run back to running (its walk replayed); null when it was not failed. */
  async reopen(runId: string): Promise<ResyncRun | null> {
    const result = await this.runs.update(
      { id: runId, state: 'failed' },
      { state: 'running', error: null, finishedAt: null, updatedAt: new Date(this.clock.now()) },
    );
    return (result.affected ?? 0) === 1 ? this.get(runId) : null;
  }

  /** Retention: deletes the runs that ended (`done` or `cancelled`) before `before` (their products with them). */
  async pruneFinishedBefore(before: Date): Promise<number> {
    return pruneInBatches(async (limit) => {
      const [, affected]: [unknown, number] = await this.runs.query(
        `DELETE FROM ${this.runsTable} WHERE id IN (SELECT id FROM ${this.runsTable}
           WHERE state IN ('done', 'cancelled') AND finished_at < $1 LIMIT $2)`,
        [before, limit],
      );
      return affected;
    });
  }

  private get runsTable(): string {
    return this.runs.metadata.tablePath;
  }

  /** The run products' table: a page's advance recounts its run's listed products in one statement. */
  private get productsTable(): string {
    return this.runs.metadata.tablePath.replace(/resync_runs$/, 'resync_run_products');
  }
}
