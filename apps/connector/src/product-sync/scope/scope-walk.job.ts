import { Processor, WorkerHost } from '@nestjs/bullmq';
import type { Job } from 'bullmq';
import { SyncSettings } from '../../platform/config/settings.js';
import type { ScopeWalkPayload } from '../../platform/queues/job-payloads.js';
import { QueueName } from '../../platform/queues/queue-names.js';
import { WORKER_OPTIONS } from '../../platform/queues/worker-options.js';
import { ShopTurns } from '../../shops/shop-turns.service.js';
import { type CollectionWalk, CollectionWalker } from './collection-walker.service.js';

/**
 * Walks scoped collections: one shop's after a `collections/*` delivery; on schedule, the shops
 * whose turn came in the tick (each once per `CONNECTOR_SCOPE_WALK_INTERVAL_MS`, `ShopTurns`).
 */
@Processor(QueueName.SCOPE_WALK, WORKER_OPTIONS)
export class ScopeWalkJob extends WorkerHost {
  constructor(
    private readonly walker: CollectionWalker,
    private readonly turns: ShopTurns,
    private readonly settings: SyncSettings,
  ) {
    super();
  }

  async process(job: Job<ScopeWalkPayload>): Promise<CollectionWalk[]> {
    const { shop } = job.data;
    if (shop === undefined)
      return this.walker.walkAll(
        this.turns.due(QueueName.SCOPE_WALK, this.settings.scopeWalkIntervalMs, job.id, job.processedOn),
      );
    const walk = await this.walker.walk(shop);
    return walk ? [walk] : [];
  }
}
