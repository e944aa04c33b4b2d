import { Injectable, type OnModuleInit } from '@nestjs/common';
import { SyncEnqueuer } from '../intake/sync-enqueuer.service.js';
import { QueueRecoveryRegistry } from '../platform/queues/queue-recovery-registry.service.js';
import { ResyncService } from './resync.service.js';
import { ResyncRunsRepository } from './resync-runs.repository.js';

const BATCH = 500;

/**
 * The resync stage's part of repairing a queue backend that lost its data: every whole-shop run
 * still walking resumed from its persisted cursor, and a sync for every product a running run
 * listed and has not heard back from. (The reconciliation's scheduler is re-created with every other.)
 */
@Injectable()
export class ResyncRecovery implements OnModuleInit {
  constructor(
    private readonly registry: QueueRecoveryRegistry,
    private readonly resync: ResyncService,
    private readonly runs: ResyncRunsRepository,
    private readonly enqueuer: SyncEnqueuer,
  ) {}

  onModuleInit(): void {
    this.registry.work({ name: 'resync', requeue: () => this.requeue() });
  }

  /** Resumes the walks, then enqueues the listed products still queued; resolves to how many jobs. */
  async requeue(): Promise<number> {
    const walking = await this.runs.walkingRuns();
    await this.resync.onApplicationBootstrap();
    let after: { shop: string; productId: string } = { shop: '', productId: '-1' };
    let total = walking;
    for (;;) {
      const page = await this.runs.products.queuedProducts(after, BATCH);
      await this.enqueuer.enqueueMany(page.map((p) => ({ ...p, reason: 'resync' as const })));
      total += page.length;
      const last = page.at(-1);
      if (last === undefined || page.length < BATCH) return total;
      after = last;
    }
  }
}
