import { Injectable } from '@nestjs/common';
import type { AfterSyncListener, SyncedProduct } from '../product-sync/sync-events.js';
import { ResyncRunsRepository } from './resync-runs.repository.js';

/**
 * Why: a run's `done` count must follow the syncs it enqueued, and the sync may not import this
 * later stage. It is an after-sync listener (listed in connector.module.ts): every finished
 * product sync marks the product done in the running runs that listed it; a sync that would
 * skip a product such a run waits for (its request was deduplicated into a webhook's job) reads
 * it instead; and one that finds it deleted for good since the run listed it (tombstoned)
 * reports it (`tombstoned`), counted done.
 */
@Injectable()
export class ResyncProgress implements AfterSyncListener {
  readonly afterSyncName = 'resync-progress';

  constructor(private readonly runs: ResyncRunsRepository) {}

  async afterSync(event: SyncedProduct): Promise<void> {
    await this.runs.products.productSynced(event.shop, event.productId);
  }

  /** A run's request joins the product's waiting job, whatever its reason: that job must read. */
  awaitsSync(subject: { shop: string; productId: string }): Promise<boolean> {
    return this.runs.products.awaitsSync(subject.shop, subject.productId);
  }
}
