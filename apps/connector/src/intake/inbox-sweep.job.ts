import { Processor, WorkerHost } from '@nestjs/bullmq';
import type { Job } from 'bullmq';
import type { InboxSweepPayload } from '../platform/queues/job-payloads.js';
import { QueueName } from '../platform/queues/queue-names.js';
import { WORKER_OPTIONS } from '../platform/queues/worker-options.js';
import { InboxSweeper } from './inbox-sweeper.service.js';

/** The scheduled inbox sweep (one job per interval across replicas). */
@Processor(QueueName.INBOX_SWEEP, WORKER_OPTIONS)
export class InboxSweepJob extends WorkerHost {
  constructor(private readonly sweeper: InboxSweeper) {
    super();
  }

  async process(_job: Job<InboxSweepPayload>): Promise<{ enqueued: number }> {
    return { enqueued: await this.sweeper.sweep() };
  }
}
