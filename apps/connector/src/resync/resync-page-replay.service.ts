import { Injectable, type OnModuleInit } from '@nestjs/common';
import { ReplayRegistry } from '../platform/failures/replay-registry.service.js';
import { JobName } from '../platform/queues/queue-names.js';
import { ResyncService } from './resync.service.js';

/** How a failed walk page is replayed: the run runs again from its persisted cursor. */
@Injectable()
export class ResyncPageReplay implements OnModuleInit {
  constructor(
    private readonly registry: ReplayRegistry,
    private readonly resync: ResyncService,
  ) {}

  onModuleInit(): void {
    this.registry.register(JobName.RESYNC_PAGE, (failure) =>
      this.resync.resumeFailed(String(failure.payload.runId), failure.id),
    );
  }
}
