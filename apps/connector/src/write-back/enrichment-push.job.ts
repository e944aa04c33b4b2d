import { Processor, WorkerHost } from '@nestjs/bullmq';
import { type OnApplicationBootstrap, type OnModuleInit } from '@nestjs/common';
import type { Job } from 'bullmq';
import { ShopMappings } from '../mapping/shop-mappings.service.js';
import { EnrichmentSettings } from '../platform/config/settings.js';
import { JobGuard } from '../platform/failures/job-guard.service.js';
import { ReplayRegistry } from '../platform/failures/replay-registry.service.js';
import type { EnrichmentPushPayload } from '../platform/queues/job-payloads.js';
import { JobName, QueueName } from '../platform/queues/queue-names.js';
import { WORKER_OPTIONS } from '../platform/queues/worker-options.js';
import { ProductLocks } from '../product-sync/product-locks.service.js';
import { MetafieldDefinitions } from './definitions/metafield-definitions.service.js';
import { PushEnqueuer } from './push/push-enqueuer.service.js';
import { type PushSummary, WriteBackPusher } from './push/write-back-pusher.service.js';

/**
 * ⑥ One product's write-back, under the product's lock (the one its syncs take): no sync and no
 * other push of the product runs meanwhile, on any replica. Waits while the shop's mapping is
 * not checked; a failed push is replayed as a new push of the product.
 */
@Processor(QueueName.ENRICHMENT_PUSH, WORKER_OPTIONS)
export class EnrichmentPushJob extends WorkerHost implements OnModuleInit, OnApplicationBootstrap {
  constructor(
    private readonly guard: JobGuard,
    private readonly mappings: ShopMappings,
    private readonly locks: ProductLocks,
    private readonly pusher: WriteBackPusher,
    private readonly enqueuer: PushEnqueuer,
    private readonly registry: ReplayRegistry,
    private readonly settings: EnrichmentSettings,
    private readonly definitions: MetafieldDefinitions,
  ) {
    super();
  }

  onModuleInit(): void {
    this.registry.register(JobName.ENRICHMENT_PUSH, (failure) =>
      this.enqueuer.enqueue({
        shop: failure.shop,
        productId: failure.subjectKey,
        reason: 'replay',
        failureId: failure.id,
      }),
    );
  }

  onApplicationBootstrap(): void {
    this.worker.concurrency = this.settings.pushConcurrency;
  }

  async process(job: Job<EnrichmentPushPayload>, token?: string): Promise<PushSummary | null> {
    const subject = { shop: job.data.shop, productId: job.data.productId };
    return this.guard.run(job, token, { shop: subject.shop, key: subject.productId }, async () => {
      const waitFor = this.mappings.waitFor(subject.shop);
      if (waitFor !== null) return this.guard.delay(job, token, waitFor);
      // A target stopped by a definition of another type is left out; the others go on.
      const stopped = this.definitions.stopped(subject.shop);
      const entries = (this.mappings.mapping(subject.shop)?.writeBack ?? []).filter(
        (e) => !stopped.has(e.path),
      );
      if (entries.length === 0) return null;
      return this.locks.withLock(
        subject,
        () => this.pusher.push(subject, entries, job.id ?? null, job.data.overwrite),
        () => this.guard.delay(job, token, this.settings.lockRetryMs),
      );
    });
  }
}
