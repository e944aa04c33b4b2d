import { Injectable, type OnModuleInit } from '@nestjs/common';
import { QueueRecoveryRegistry } from '../platform/queues/queue-recovery-registry.service.js';
import { Shops } from '../shops/shops.js';
import { PushEnqueuer } from './push/push-enqueuer.service.js';
import { EnrichmentOutbox } from './store/enrichment-outbox.repository.js';

/**
 * The write-back's part of repairing a queue backend that lost its data: a push for every product
 * with pending work in the outbox (the push coalesces per product and reads the outbox itself, so
 * enqueueing it again is harmless). The poll's scheduler is re-created with every other.
 */
@Injectable()
export class EnrichmentRecovery implements OnModuleInit {
  constructor(
    private readonly registry: QueueRecoveryRegistry,
    private readonly outbox: EnrichmentOutbox,
    private readonly pushes: PushEnqueuer,
    private readonly shops: Shops,
  ) {}

  onModuleInit(): void {
    this.registry.work({ name: 'enrichment-outbox', requeue: () => this.requeue() });
  }

  /** Enqueues a push per product with pending outbox work; resolves to how many. */
  async requeue(): Promise<number> {
    let total = 0;
    for (const shop of this.shops.all) {
      const pending = await this.outbox.pendingProducts(shop.domain);
      await this.pushes.enqueueMany(
        pending.map((productId) => ({ shop: shop.domain, productId, reason: 'poll' as const })),
      );
      total += pending.length;
    }
    return total;
  }
}
