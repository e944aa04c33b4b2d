import { Injectable, type OnModuleInit } from '@nestjs/common';
import { SyncEvents } from '../product-sync/sync-events.js';
import { ResyncRunsRepository } from './resync-runs.repository.js';

/**
 * Why: a run's `done` count must follow the syncs it enqueued, and the sync may not import this
 * later stage. It listens to `SyncEvents`: every finished product sync marks the product done
 * in the running runs that listed it; a sync that would skip a product such a run waits for
 * (its request was deduplicated into a webhook's job) reads it instead; and one that finds it
 * deleted for good since the run listed it (tombstoned) reports it (`tombstoned`), counted done.
 */
@Injectable()
export class ResyncProgress implements OnModuleInit {
  constructor(
    private readonly events: SyncEvents,
    private readonly runs: ResyncRunsRepository,
  ) {}

  onModuleInit(): void {
    this.events.onSynced(
      'resync-progress',
      (event) => this.runs.products.productSynced(event.shop, event.productId),
      // A run's request joins the product's waiting job, whatever its reason: that job must read.
      { awaits: (subject) => this.runs.products.awaitsSync(subject.shop, subject.productId) },
    );
  }
}
