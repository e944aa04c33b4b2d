import { Injectable } from '@nestjs/common';
import { BulkProductReader } from '../clients/shopify/bulk-product.reader.js';
import { ShopBulkLock } from '../clients/shopify/shop-bulk-lock.service.js';
import { SyncEnqueuer } from '../intake/sync-enqueuer.service.js';
import { ResyncSnapshots } from '../product-sync/resync-snapshots.repository.js';
import type { ResyncRun } from './resync-run.entity.js';
import { ResyncRunsRepository } from './resync-runs.repository.js';

/** The run stopped being `running` (cancelled) while its bulk read streamed. */
class WalkStopped extends Error {}

/** How a bulk walk ended: the run's last products enqueued, cancelled, another read of the shop under way, or failed twice. */
export type BulkWalkOutcome = 'last' | 'stopped' | 'busy' | 'fallback';

/**
 * A whole-shop resync read through one bulk query (`BulkProductReader`), under the shop's bulk
 * lock: each batch of products it streams is stored as the run's snapshots (the syncs plan from
 * them instead of reading each product again), listed as the run's and enqueued. The attempts
 * are recorded in the run; after two failed operations the run reads pages (`fallback`).
 *
 * One bulk read at a time per process (`busy` otherwise: the page job looks again later). A read
 * holds its page worker for minutes; the page queue has two (`ResyncPageJob`), so other shops'
 * walks go on page by page beside it (docs/sync.md, "Fairness across shops").
 */
@Injectable()
export class ResyncBulkWalk {
  /** A bulk read of this process is under way. */
  private reading = false;

  constructor(
    private readonly runs: ResyncRunsRepository,
    private readonly snapshots: ResyncSnapshots,
    private readonly enqueuer: SyncEnqueuer,
    private readonly reader: BulkProductReader,
    private readonly lock: ShopBulkLock,
  ) {}

  async walk(run: ResyncRun): Promise<BulkWalkOutcome> {
    if (this.reading) return 'busy';
    this.reading = true;
    try {
      return await this.lock.withLock(
        run.shop,
        () => this.read(run),
        async () => 'busy' as const,
      );
    } finally {
      this.reading = false;
    }
  }

  private async read(run: ResyncRun): Promise<BulkWalkOutcome> {
    let report: Awaited<ReturnType<BulkProductReader['read']>>;
    try {
      report = await this.reader.read(run.shop, async (products, snapshotAt) => {
        const current = await this.runs.get(run.id);
        if (current?.state !== 'running') throw new WalkStopped();
        await this.snapshots.save(run.id, run.shop, snapshotAt, products);
        const ids = products.map((p) => p.legacyResourceId);
        await this.runs.products.listProducts(run, ids);
        await this.enqueuer.enqueueMany(
          ids.map((productId) => ({ shop: run.shop, productId, reason: 'resync' })),
        );
      });
    } catch (error) {
      if (error instanceof WalkStopped) return 'stopped';
      throw error;
    }
    await this.runs.readWith(run.id, report.ok ? 'bulk' : 'bulk-fallback', report.attempts);
    if (!report.ok) return 'fallback';
    return (await this.runs.advance(run.id, run.cursor, null, true)) ? 'last' : 'stopped';
  }
}
