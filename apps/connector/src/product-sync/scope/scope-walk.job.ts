import { Processor, WorkerHost } from '@nestjs/bullmq';
import type { Job } from 'bullmq';
import type { ScopeWalkPayload } from '../../platform/queues/job-payloads.js';
import { QueueName } from '../../platform/queues/queue-names.js';
import { WORKER_OPTIONS } from '../../platform/queues/worker-options.js';
import { type CollectionWalk, CollectionWalker } from './collection-walker.service.js';

/** Walks scoped collections: one shop's after a `collections/*` delivery, every shop's on schedule. */
@Processor(QueueName.SCOPE_WALK, WORKER_OPTIONS)
export class ScopeWalkJob extends WorkerHost {
  constructor(private readonly walker: CollectionWalker) {
    super();
  }

  async process(job: Job<ScopeWalkPayload>): Promise<CollectionWalk[]> {
    const { shop } = job.data;
    if (shop === undefined) return this.walker.walkAll();
    const walk = await this.walker.walk(shop);
    return walk ? [walk] : [];
  }
}
