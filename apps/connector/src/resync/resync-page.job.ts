import { Processor, WorkerHost } from '@nestjs/bullmq';
import type { OnApplicationBootstrap } from '@nestjs/common';
import { type Job, UnrecoverableError } from 'bullmq';
import { ResyncSettings } from '../platform/config/settings.js';
import { JobGuard } from '../platform/failures/job-guard.service.js';
import type { ResyncPagePayload } from '../platform/queues/job-payloads.js';
import { QueueName } from '../platform/queues/queue-names.js';
import { WORKER_OPTIONS } from '../platform/queues/worker-options.js';
import { ResyncService } from './resync.service.js';

/**
 * Page jobs run at once per process: a walk enqueues its next page only when a page is done, so
 * running walks take turns page by page; a bulk read holds one of them for minutes (one at a
 * time: `ResyncBulkWalk`), the other goes on with the other shops' pages.
 */
const CONCURRENCY = 2;

/**
 * One page of a whole-shop resync walk (`ResyncService.walkPage`), or its whole bulk read;
 * failures go to the failures table.
 */
@Processor(QueueName.RESYNC_PAGE, WORKER_OPTIONS)
export class ResyncPageJob extends WorkerHost implements OnApplicationBootstrap {
  constructor(
    private readonly guard: JobGuard,
    private readonly resync: ResyncService,
    private readonly settings: ResyncSettings,
  ) {
    super();
  }

  onApplicationBootstrap(): void {
    this.worker.concurrency = CONCURRENCY;
  }

  async process(job: Job<ResyncPagePayload>, token?: string): Promise<string> {
    const { runId, shop } = job.data;
    try {
      return await this.guard.run(job, token, { shop, key: `run:${runId}` }, async () => {
        const outcome = await this.resync.walkPage(runId);
        // Another bulk read of the shop is under way: look again in a few polls.
        if (outcome === 'busy') return this.guard.delay(job, token, 5 * this.settings.bulkPollMs);
        return outcome;
      });
    } catch (error) {
      // The guard recorded it: the walk cannot go on until it is replayed.
      if (error instanceof UnrecoverableError) await this.resync.walkFailed(runId, error.message);
      throw error;
    }
  }
}
