import { Injectable, type OnModuleInit } from '@nestjs/common';
import { QueueRecoveryRegistry } from '../platform/queues/queue-recovery-registry.service.js';
import { InboxRepository } from './inbox.repository.js';
import { SyncEnqueuer } from './sync-enqueuer.service.js';

const BATCH = 500;

/**
 * The inbox's part of repairing a queue backend that lost its data: a sync for every product with
 * deliveries still `received` (their jobs may be gone; a delete's grace is counted from the
 * delivery, so it is kept). Products with an open sync failure are left to the failures inbox, as
 * the sweeper does. (The sweeper's scheduler is re-created with every other, `JobSchedulers`.)
 */
@Injectable()
export class InboxRecovery implements OnModuleInit {
  constructor(
    private readonly registry: QueueRecoveryRegistry,
    private readonly inbox: InboxRepository,
    private readonly enqueuer: SyncEnqueuer,
  ) {}

  onModuleInit(): void {
    this.registry.work({ name: 'inbox', requeue: () => this.requeue() });
  }

  /** Enqueues every product with unprocessed deliveries, in keyset pages; resolves to how many. */
  async requeue(): Promise<number> {
    let after: { shop: string; productId: string } = { shop: '', productId: '-1' };
    let total = 0;
    for (;;) {
      const products = await this.inbox.unprocessedProducts(after, BATCH);
      await this.enqueuer.enqueueMany(products.map((p) => ({ ...p, reason: 'sweep' as const })));
      total += products.length;
      const last = products.at(-1);
      if (last === undefined || products.length < BATCH) return total;
      after = last;
    }
  }
}
