import { InjectQueue } from '@nestjs/bullmq';
import { Injectable, Logger, type OnApplicationBootstrap } from '@nestjs/common';
import type { Queue } from 'bullmq';
import { ShopifyAdmin } from '../clients/shopify/shopify-admin.service.js';
import { listProductPage } from '../clients/shopify/shopify-product-pages.js';
import { SyncEnqueuer } from '../intake/sync-enqueuer.service.js';
import { CatalogSettings, ResyncSettings, SyncSettings } from '../platform/config/settings.js';
import { ConnectorError } from '../platform/http/connector.error.js';
import { ConnectorErrorCode } from '../platform/http/connector-error-code.js';
import { resyncPageJobOptions } from '../platform/queues/job-options.js';
import type { ResyncPagePayload } from '../platform/queues/job-payloads.js';
import { JobName, QueueName } from '../platform/queues/queue-names.js';
import { Shops } from '../shops/shops.js';
import { Reconciler } from './reconciler.service.js';
import { ResyncBulkWalk } from './resync-bulk-walk.service.js';
import { ResyncDryRun } from './resync-dry-run.service.js';
import { type ResyncRunDto, resyncRunDto } from './resync-run.dto.js';
import type { ResyncReadMode, ResyncRun } from './resync-run.entity.js';
import { ResyncRunsRepository } from './resync-runs.repository.js';

/** A dry run's planned products shown per page of `GET /admin/resync/{id}`. */
const PLAN_PAGE = 100;

/**
 * Resync runs: one product now, or a whole shop walked through the Admin API page by page (one
 * `resync-page` job per page), each product enqueued with reason `resync` (such syncs always
 * read Shopify). The run's cursor is persisted after each page, so a restart resumes the walk
 * (`onApplicationBootstrap`); cancelling stops the walk (products already enqueued still sync).
 */
@Injectable()
export class ResyncService implements OnApplicationBootstrap {
  private readonly logger = new Logger('Resync');

  constructor(
    private readonly runs: ResyncRunsRepository,
    private readonly enqueuer: SyncEnqueuer,
    private readonly shopify: ShopifyAdmin,
    private readonly syncSettings: SyncSettings,
    private readonly catalogSettings: CatalogSettings,
    private readonly resyncSettings: ResyncSettings,
    private readonly shops: Shops,
    @InjectQueue(QueueName.RESYNC_PAGE) private readonly pages: Queue<ResyncPagePayload>,
    private readonly bulkWalk: ResyncBulkWalk,
    private readonly dryRuns: ResyncDryRun,
    private readonly reconciler: Reconciler,
  ) {}

  /** Resumes every whole-shop run still walking (its page job may be lost, or waiting: ids dedupe). */
  async onApplicationBootstrap(): Promise<void> {
    for (const run of await this.runs.walking()) {
      await this.enqueuePage(run);
      this.logger.log(`Resuming resync run ${run.id} of ${run.shop} at page ${run.pages + 1}`);
    }
  }

  /**
   * Starts a run of one product or a whole shop. A dry run (issue 31) walks the same way but its
   * page jobs plan the products instead of enqueueing them (`ResyncDryRun`), even one product.
   */
  async start(shopDomain: string, productId: string | null, dryRun = false): Promise<ResyncRunDto> {
    const shop = this.served(shopDomain);
    const run = await this.runs.create(shop, productId, { dryRun });
    if (productId === null || dryRun) await this.enqueuePage(run);
    else await this.enqueuer.enqueue({ shop, productId, reason: 'resync' });
    return this.show(run.id);
  }

  /**
   * An operator's reconciliation of one shop now (`POST /admin/reconcile`): a run of scope
   * `reconcile` whose one page job reconciles the shop, listing what it finds; a dry run plans
   * those products instead of enqueueing them and leaves the checkpoint where it is.
   */
  async startReconcile(shopDomain: string, dryRun: boolean): Promise<ResyncRunDto> {
    const run = await this.runs.create(this.served(shopDomain), null, { dryRun, reconcile: true });
    await this.enqueuePage(run);
    return this.show(run.id);
  }

  private served(shopDomain: string): string {
    const shop = this.shops.find(shopDomain);
    if (!shop) {
      throw new ConnectorError(ConnectorErrorCode.UNKNOWN_SHOP, `Shop ${shopDomain} is not configured.`, {
        shop: shopDomain,
      });
    }
    return shop.domain;
  }

  /** The run with its progress; a run whose walk is over and whose products all reported ends `done`. */
  async show(id: string, planAfter = '0'): Promise<ResyncRunDto> {
    let run = await this.existing(id);
    let counts = await this.runs.products.counts(run.id);
    if (run.state === 'running' && run.walkDone && counts.waiting === 0) {
      await this.runs.finish(run.id, 'done');
      run = await this.existing(id);
      counts = await this.runs.products.counts(run.id);
    }
    const plan = run.dryRun
      ? {
          counts: await this.runs.products.planCounts(run.id),
          products: await this.runs.products.plans(run.id, planAfter, PLAN_PAGE),
        }
      : null;
    return resyncRunDto(run, counts, this.catalogSettings.ratePerSecond, plan, PLAN_PAGE);
  }

  /** Cancels a running run: its walk stops before the next page. 409 when it has ended. */
  async cancel(id: string): Promise<ResyncRunDto> {
    const run = await this.existing(id);
    if (!(await this.runs.finish(run.id, 'cancelled'))) {
      const { state } = await this.existing(id);
      throw new ConnectorError(ConnectorErrorCode.RUN_NOT_RUNNING, `Resync run ${id} is ${state}.`, {
        state,
      });
    }
    return this.show(id);
  }

  /**
   * One page of a run's walk: list the products after the run's cursor, record and enqueue them,
   * move the cursor, and enqueue the next page. A cancelled or finished run does nothing; a
   * retried page repeats only its own products (enqueueing dedupes). The first page decides how
   * the shop is read: a shop with more than `CONNECTOR_BULK_THRESHOLD` products is read whole
   * through one bulk query (`ResyncBulkWalk`; `busy` while another bulk read of the shop runs),
   * pages again if that fails twice.
   */
  async walkPage(runId: string): Promise<'walked' | 'last' | 'stopped' | 'busy'> {
    const run = await this.runs.get(runId);
    if (run?.state !== 'running' || run.walkDone) return 'stopped';
    if (run.scope !== 'shop') return this.walkAtOnce(run);
    if (run.readMode === null) {
      // A dry run plans from its own reads of each product: no bulk read (no snapshot would be used).
      run.readMode = run.dryRun ? 'pages' : await this.readModeOf(run.shop);
      await this.runs.readWith(run.id, run.readMode);
    }
    if (run.readMode === 'bulk') {
      const outcome = await this.bulkWalk.walk(run);
      if (outcome !== 'fallback') return outcome;
    }
    const page = await listProductPage(this.shopify.forShop(run.shop), {
      after: run.cursor,
      first: this.resyncSettings.pageSize,
    });
    const ids = page.items.map((p) => p.productId);
    await this.runs.products.listProducts(run, ids);
    if (run.dryRun) await this.dryRuns.plan(run, ids);
    // One round trip for the page's syncs (each deduplicated as a single enqueue would be).
    else
      await this.enqueuer.enqueueMany(
        ids.map((productId) => ({ shop: run.shop, productId, reason: 'resync' })),
      );
    const last = page.next === null;
    if (!(await this.runs.advance(run.id, run.cursor, page.next ?? run.cursor, last))) return 'stopped';
    if (last) return 'last';
    await this.enqueuePage({ ...run, pages: run.pages + 1 });
    return 'walked';
  }

  /** A run of one page: a one-product dry run plans its product; a reconciliation reconciles the shop. */
  private async walkAtOnce(run: ResyncRun): Promise<'last' | 'stopped'> {
    if (run.scope === 'product' && run.productId !== null) await this.dryRuns.plan(run, [run.productId]);
    if (run.scope === 'reconcile') {
      await this.reconciler.reconcile(run.shop, {
        dryRun: run.dryRun,
        found: async (productIds) => {
          await this.runs.products.listProducts(run, productIds);
          if (run.dryRun) await this.dryRuns.plan(run, productIds);
        },
      });
    }
    return (await this.runs.advance(run.id, run.cursor, run.cursor, true)) ? 'last' : 'stopped';
  }

  /** Bulk above the threshold: one id page of threshold + 1 products tells (threshold + 3 points). */
  private async readModeOf(shop: string): Promise<ResyncReadMode> {
    const threshold = this.resyncSettings.bulkThreshold;
    const probe = await listProductPage(this.shopify.forShop(shop), { after: null, first: threshold + 1 });
    return probe.items.length > threshold ? 'bulk' : 'pages';
  }

  /** A walk that failed for good: the run is `failed` (its page failure is in the failures table). */
  async walkFailed(runId: string, message: string): Promise<void> {
    await this.runs.finish(runId, 'failed', message.slice(0, 500));
  }

  /** Replays a failed walk: the run runs again from its cursor. */
  async resumeFailed(runId: string, replayId: string): Promise<void> {
    const run = await this.runs.reopen(runId);
    if (run) await this.enqueuePage(run, replayId);
  }

  private async enqueuePage(run: Pick<ResyncRun, 'id' | 'shop' | 'pages'>, replayId?: string): Promise<void> {
    const options = resyncPageJobOptions(this.syncSettings, run.id, run.pages);
    if (replayId) options.jobId = `${options.jobId}-replay-${replayId}`;
    await this.pages.add(JobName.RESYNC_PAGE, { runId: run.id, shop: run.shop }, options);
  }

  private async existing(id: string): Promise<ResyncRun> {
    const run = /^[1-9][0-9]{0,17}$/.test(id) ? await this.runs.get(id) : null;
    if (!run) throw new ConnectorError(ConnectorErrorCode.NOT_FOUND, `No resync run ${id}.`, { id });
    return run;
  }
}
