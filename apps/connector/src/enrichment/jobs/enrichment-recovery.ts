import { InjectQueue } from '@nestjs/bullmq';
import { Inject, Injectable, type OnModuleInit } from '@nestjs/common';
import type { Queue } from 'bullmq';
import type { ConnectorConfig } from '../../config/connector.config.js';
import { CONNECTOR_CONFIG } from '../../connector.tokens.js';
import { JobName, QueueName } from '../../queues/queue-names.js';
import { QueueRecoveryRegistry } from '../../queues/queue-recovery-registry.js';
import { PushEnqueuer } from '../push/push-enqueuer.js';
import { EnrichmentOutbox } from '../store/enrichment-outbox.repository.js';
import { EnrichmentPollScheduler } from './enrichment-poll-scheduler.js';

/**
 * The write-back's part of repairing a queue backend that lost its data: the poll's scheduler,
 * and a push for every product with pending work in the outbox (the push coalesces per product
 * and reads the outbox itself, so enqueueing it again is harmless).
 */
@Injectable()
export class EnrichmentRecovery implements OnModuleInit {
  constructor(
    private readonly registry: QueueRecoveryRegistry,
    private readonly scheduler: EnrichmentPollScheduler,
    private readonly outbox: EnrichmentOutbox,
    private readonly pushes: PushEnqueuer,
    @Inject(CONNECTOR_CONFIG) private readonly config: ConnectorConfig,
    @InjectQueue(QueueName.ENRICHMENT_POLL) private readonly queue: Queue,
  ) {}

  onModuleInit(): void {
    this.registry.scheduler({
      queue: this.queue,
      id: JobName.ENRICHMENT_POLL,
      ensure: () => this.scheduler.onApplicationBootstrap(),
    });
    this.registry.work({ name: 'enrichment-outbox', requeue: () => this.requeue() });
  }

  /** Enqueues a push per product with pending outbox work; resolves to how many. */
  async requeue(): Promise<number> {
    let total = 0;
    for (const shop of this.config.shops) {
      for (const productId of await this.outbox.pendingProducts(shop.domain)) {
        await this.pushes.enqueue({ shop: shop.domain, productId, reason: 'poll' });
        total += 1;
      }
    }
    return total;
  }
}
