import type { WorkerOptions } from 'bullmq';
import type { QueueConfig } from '../config/infrastructure-config.js';

/**
 * The options every job class's worker is created with (`@Processor(name, WORKER_OPTIONS)`):
 * the job lock and the stalled-job check. The decorator keeps this object, and the workers are
 * created from it when the app starts, so `configureWorkers` fills it from the configuration
 * first (in `queuesModule`). Process-wide, like BullMQ's backend factory: one process runs one
 * configuration.
 */
export const WORKER_OPTIONS: Pick<WorkerOptions, 'lockDuration' | 'stalledInterval'> = {};

/**
 * A job whose process died (kill -9, OOM) holds its lock until the lock lapses, and is found
 * by the next stalled check: it runs again after at most about twice `lockMs`.
 */
export function configureWorkers(queue: Pick<QueueConfig, 'lockMs'>): void {
  WORKER_OPTIONS.lockDuration = queue.lockMs;
  WORKER_OPTIONS.stalledInterval = queue.lockMs;
}
