import { Processor, WorkerHost } from '@nestjs/bullmq';
import type { Job } from 'bullmq';
import type { ReconcilePayload } from '../platform/queues/job-payloads.js';
import { QueueName } from '../platform/queues/queue-names.js';
import { WORKER_OPTIONS } from '../platform/queues/worker-options.js';
import { type ReconcileResult, Reconciler } from './reconciler.service.js';

/** The scheduled reconciliation (one job per interval across replicas); it only enqueues syncs. */
@Processor(QueueName.RECONCILE, WORKER_OPTIONS)
export class ReconcileJob extends WorkerHost {
  constructor(private readonly reconciler: Reconciler) {
    super();
  }

  process(_job: Job<ReconcilePayload>): Promise<ReconcileResult[]> {
    return this.reconciler.reconcileAll();
  }
}
