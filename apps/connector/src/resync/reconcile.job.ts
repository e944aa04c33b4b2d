import { Processor, WorkerHost } from '@nestjs/bullmq';
import type { Job } from 'bullmq';
import { ReconcileSettings } from '../platform/config/settings.js';
import type { ReconcilePayload } from '../platform/queues/job-payloads.js';
import { QueueName } from '../platform/queues/queue-names.js';
import { WORKER_OPTIONS } from '../platform/queues/worker-options.js';
import { ShopTurns } from '../shops/shop-turns.service.js';
import { type ReconcileResult, Reconciler } from './reconciler.service.js';

/**
 * The scheduled reconciliation (one job per tick across replicas): the shops whose turn came in
 * the tick, each once per `CONNECTOR_RECONCILE_INTERVAL_MS` (`ShopTurns`); it only enqueues syncs.
 */
@Processor(QueueName.RECONCILE, WORKER_OPTIONS)
export class ReconcileJob extends WorkerHost {
  constructor(
    private readonly reconciler: Reconciler,
    private readonly turns: ShopTurns,
    private readonly settings: ReconcileSettings,
  ) {
    super();
  }

  process(job: Job<ReconcilePayload>): Promise<ReconcileResult[]> {
    return this.reconciler.reconcileAll(
      this.turns.due(QueueName.RECONCILE, this.settings.intervalMs, job.id, job.processedOn),
    );
  }
}
