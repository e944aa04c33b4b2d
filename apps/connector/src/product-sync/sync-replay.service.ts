import { Injectable, type OnModuleInit } from '@nestjs/common';
import { SyncEnqueuer } from '../intake/sync-enqueuer.service.js';
import { ReplayRegistry } from '../platform/failures/replay-registry.service.js';
import { JobName } from '../platform/queues/queue-names.js';

/** How a failed product sync is replayed: a forced sync of the same product. */
@Injectable()
export class SyncReplay implements OnModuleInit {
  constructor(
    private readonly registry: ReplayRegistry,
    private readonly enqueuer: SyncEnqueuer,
  ) {}

  onModuleInit(): void {
    this.registry.register(JobName.SYNC_PRODUCT, (failure) =>
      this.enqueuer.enqueue({
        shop: failure.shop,
        productId: failure.subjectKey,
        reason: 'replay',
        failureId: failure.id,
      }),
    );
  }
}
