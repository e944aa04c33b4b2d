import { Injectable, Logger } from '@nestjs/common';
import { Clock } from '#lib/clock';
import { InboxSettings } from '../platform/config/settings.js';
import { InboxRepository } from './inbox.repository.js';
import { SyncEnqueuer } from './sync-enqueuer.service.js';

const BATCH = 500;

/**
 * Recovers deliveries stored but never synced (a crash between insert and enqueue, a queue that
 * lost its jobs): products with deliveries waiting longer than `sweepAfterMs` are enqueued again.
 * Enqueueing is deduplicated, so a product whose job is merely delayed is not doubled. Runs as a
 * BullMQ job scheduler (`JobSchedulers`): once per interval across all replicas.
 */
@Injectable()
export class InboxSweeper {
  private readonly logger = new Logger('InboxSweeper');

  constructor(
    private readonly repository: InboxRepository,
    private readonly enqueuer: SyncEnqueuer,
    private readonly clock: Clock,
    private readonly settings: InboxSettings,
  ) {}

  /** Enqueues every product with overdue deliveries; resolves to how many. */
  async sweep(): Promise<number> {
    const before = new Date(this.clock.now() - this.settings.sweepAfterMs);
    let total = 0;
    for (;;) {
      const products = await this.repository.staleProducts(before, BATCH);
      await this.enqueuer.enqueueMany(products.map((product) => ({ ...product, reason: 'sweep' as const })));
      total += products.length;
      if (products.length < BATCH) break;
    }
    if (total > 0) this.logger.warn(`Re-enqueued ${total} product(s) with overdue deliveries`);
    return total;
  }
}
