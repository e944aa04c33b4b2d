import { InjectQueue } from '@nestjs/bullmq';
import { Injectable } from '@nestjs/common';
import type { Queue } from 'bullmq';
import { ShopMappings } from '../mapping/shop-mappings.service.js';
import { scopeWalkJobOptions } from '../platform/queues/job-options.js';
import type { ScopeWalkPayload } from '../platform/queues/job-payloads.js';
import { JobName, QueueName } from '../platform/queues/queue-names.js';

/**
 * Why: a `collections/*` delivery says a collection changed, not which products came or went
 * (its body is the collection). For a shop whose scope names collections, it asks for a walk of
 * the shop's scoped collections (coalesced per shop while one waits); other shops ignore it.
 */
@Injectable()
export class ScopeWalkRequests {
  constructor(
    @InjectQueue(QueueName.SCOPE_WALK) private readonly queue: Queue<ScopeWalkPayload>,
    private readonly mappings: ShopMappings,
  ) {}

  /** True when a walk was asked for (the shop's scope names collections). */
  async collectionChanged(shop: string): Promise<boolean> {
    if ((this.mappings.scopeOf(shop)?.collections.length ?? 0) === 0) return false;
    await this.queue.add(JobName.SCOPE_WALK, { shop }, scopeWalkJobOptions(shop));
    return true;
  }
}
