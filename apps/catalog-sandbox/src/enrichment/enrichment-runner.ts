import { Inject, Injectable, Logger } from '@nestjs/common';
import { CatalogErrorCode } from '#lib/catalog-contract';
import { Clock } from '#lib/clock';
import type { Account } from '../accounts/account.js';
import { AccountRegistry } from '../accounts/account.registry.js';
import { SANDBOX_CONFIG } from '../catalog-sandbox.tokens.js';
import type { CatalogSandboxConfig } from '../config/catalog-sandbox.config.js';
import { CatalogApiError } from '../http/catalog-api.error.js';
import { PlatformIdGenerator } from '../ids/platform-id.generator.js';
import type { StoredProduct } from '../products/stored-product.js';
import { ENRICHER, type Enricher } from './enricher.js';
import { type EnrichmentRun, type EnrichmentRunItem, isRunDone } from './enrichment-run.js';
import { enrichProduct, type ProductEnrichmentOutcome } from './product-enrichment.js';
import type { RunRequest } from './run-body.js';

/**
 * Starts and advances enrichment runs (the portal's "enrich" action). Each record of a run gets
 * a `dataEnrichment` with its own taskId and goes QUEUED, IN_PROGRESS, then FINISHED, FAILED or
 * SKIPPED (with `completedAt`). Status changes never touch `updatedAt`; written values do only
 * with the `enrichmentTouchesUpdatedAt` switch. Runs live in memory by account; a record can be
 * in one unfinished run at a time.
 */
@Injectable()
export class EnrichmentRunner {
  private readonly logger = new Logger('CatalogSandbox');
  private readonly runs = new Map<string, Map<string, EnrichmentRun>>();
  /** Steps of a run never overlap: each waits for the previous one. */
  private readonly stepChains = new WeakMap<EnrichmentRun, Promise<void>>();
  private runSeq = 0;

  constructor(
    @Inject(SANDBOX_CONFIG) private readonly config: CatalogSandboxConfig,
    private readonly clock: Clock,
    private readonly ids: PlatformIdGenerator,
    private readonly accounts: AccountRegistry,
    @Inject(ENRICHER) private readonly enricher: Enricher,
  ) {}

  start(account: Account, request: RunRequest): EnrichmentRun {
    const missing = request.skuIds.filter((s) => !account.products.get(s));
    if (missing.length > 0) {
      throw new CatalogApiError(
        CatalogErrorCode.PRODUCT_NOT_FOUND,
        `${missing.length} skuIds do not exist.`,
        {
          details: { skuIds: missing },
        },
      );
    }
    const busy = this.busySkuIds(account);
    const taken = request.skuIds.filter((s) => busy.has(s));
    if (taken.length > 0) {
      throw new CatalogApiError(CatalogErrorCode.CONFLICT, 'Some records are already in an unfinished run.', {
        details: { skuIds: taken, runIds: [...new Set(taken.map((s) => busy.get(s)))] },
        suggestion: 'Wait for that run to finish (or step it), then start a new one.',
      });
    }
    this.runSeq += 1;
    const run: EnrichmentRun = {
      runId: `run_${this.runSeq}`,
      account,
      mode: request.mode,
      batchSize: request.batchSize ?? request.skuIds.length,
      createdAt: this.clock.now(),
      items: [],
      nextQueued: 0,
      inProgress: [],
      steps: 0,
    };
    for (const skuId of request.skuIds) {
      const item: EnrichmentRunItem = { skuId, taskId: this.ids.next('TK'), status: 'QUEUED', filled: [] };
      run.items.push(item);
      const product = account.products.get(skuId);
      if (product) product.dataEnrichment = { taskId: item.taskId, status: 'QUEUED' };
    }
    let byId = this.runs.get(account.id);
    if (!byId) {
      byId = new Map();
      this.runs.set(account.id, byId);
    }
    byId.set(run.runId, run);
    if (run.mode === 'auto') this.drive(run);
    return run;
  }

  list(account: Account): EnrichmentRun[] {
    return [...(this.runs.get(account.id)?.values() ?? [])].filter((r) => r.account === account);
  }

  get(account: Account, runId: string): EnrichmentRun {
    const run = this.runs.get(account.id)?.get(runId);
    if (run?.account !== account) {
      throw new CatalogApiError(CatalogErrorCode.NOT_FOUND, `No enrichment run "${runId}".`);
    }
    return run;
  }

  /** Advances a manual run by one step (409 for automatic or finished runs). */
  async stepManual(account: Account, runId: string): Promise<EnrichmentRun> {
    const run = this.get(account, runId);
    if (run.mode !== 'manual') {
      throw new CatalogApiError(CatalogErrorCode.CONFLICT, `Run "${runId}" advances on its own (mode auto).`);
    }
    if (isRunDone(run)) throw new CatalogApiError(CatalogErrorCode.CONFLICT, `Run "${runId}" is finished.`);
    await this.step(run);
    return run;
  }

  /** One step: the records in progress end, then the next batch of queued records starts. */
  step(run: EnrichmentRun): Promise<void> {
    const previous = this.stepChains.get(run) ?? Promise.resolve();
    const next = previous.then(() => this.advance(run));
    this.stepChains.set(
      run,
      next.catch(() => undefined),
    );
    return next;
  }

  private async advance(run: EnrichmentRun): Promise<void> {
    if (isRunDone(run)) return;
    run.steps += 1;
    for (const item of run.inProgress) await this.finish(run, item);
    run.inProgress = [];
    const end = Math.min(run.items.length, run.nextQueued + run.batchSize);
    for (let i = run.nextQueued; i < end; i++) {
      const item = run.items[i] as EnrichmentRunItem;
      const product = run.account.products.get(item.skuId);
      if (!product) {
        item.status = 'DELETED';
        continue;
      }
      item.status = 'IN_PROGRESS';
      product.dataEnrichment = { taskId: item.taskId, status: 'IN_PROGRESS' };
      run.inProgress.push(item);
    }
    run.nextQueued = end;
    if (run.inProgress.length === 0 && run.nextQueued >= run.items.length) run.completedAt = this.clock.now();
  }

  private async finish(run: EnrichmentRun, item: EnrichmentRunItem): Promise<void> {
    const { account } = run;
    const product = account.products.get(item.skuId);
    const outcome = product ? await this.enrichSafely(account, item, product) : undefined;
    if (!product || !outcome || account.products.get(item.skuId) !== product) {
      item.status = 'DELETED';
      return;
    }
    const now = this.clock.now();
    Object.assign(item, outcome, { completedAt: now });
    product.dataEnrichment = { taskId: item.taskId, status: outcome.status, completedAt: now };
    const wrote = outcome.filled.length > 0 || outcome.classifiedCategory !== undefined;
    if (wrote && account.behaviour.enrichmentTouchesUpdatedAt) {
      product.updatedAt = Math.max(now, product.updatedAt + 1);
    }
  }

  private async enrichSafely(
    account: Account,
    item: EnrichmentRunItem,
    product: StoredProduct,
  ): Promise<ProductEnrichmentOutcome> {
    try {
      return await enrichProduct(account, product, this.enricher);
    } catch (error) {
      this.logger.error(`Enrichment of ${item.skuId} failed`, (error as Error)?.stack);
      return {
        status: 'FAILED',
        filled: [],
        error: {
          code: 'enrichment_failed',
          message: 'The enricher failed on this product.',
          details: { productModel: null, suggestion: 'Run enrichment again.' },
        },
      };
    }
  }

  /** Automatic runs: one step every `stepMs` of the sandbox clock, until done or the account goes. */
  private drive(run: EnrichmentRun): void {
    const loop = async () => {
      while (!isRunDone(run)) {
        await this.clock.sleep(this.config.enrichment.stepMs);
        if (this.accounts.get(run.account.id) !== run.account) return;
        await this.step(run);
      }
    };
    loop().catch((error: unknown) => this.logger.error(`Run ${run.runId} stopped`, (error as Error)?.stack));
  }

  private busySkuIds(account: Account): Map<string, string> {
    const busy = new Map<string, string>();
    for (const run of this.list(account)) {
      if (isRunDone(run)) continue;
      for (const item of run.items) {
        if (item.status === 'QUEUED' || item.status === 'IN_PROGRESS') busy.set(item.skuId, run.runId);
      }
    }
    return busy;
  }
}
