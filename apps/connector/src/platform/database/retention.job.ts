import { Processor, WorkerHost } from '@nestjs/bullmq';
import type { Job } from 'bullmq';
import type { RetentionPayload } from '../queues/job-payloads.js';
import { QueueName } from '../queues/queue-names.js';
import { WORKER_OPTIONS } from '../queues/worker-options.js';
import { Retention, type RetentionResult } from './retention.service.js';

/** The scheduled retention run (one job per interval across replicas). */
@Processor(QueueName.RETENTION, WORKER_OPTIONS)
export class RetentionJob extends WorkerHost {
  constructor(private readonly retention: Retention) {
    super();
  }

  async process(_job: Job<RetentionPayload>): Promise<RetentionResult> {
    return this.retention.run();
  }
}
