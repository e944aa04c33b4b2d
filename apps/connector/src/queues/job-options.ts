import type { JobsOptions } from 'bullmq';
import type { ConnectorConfig } from '../config/connector.config.js';
import type { SyncProductPayload } from './job-payloads.js';

const HOUR_S = 3_600;

/**
 * Every job's BullMQ options, built here and nowhere else: ids and deduplication, attempts,
 * back-off, delay and retention.
 *
 * Product syncs coalesce on one deduplication id per product: while its job waits (debounce
 * delay, back-off, or a busy product lock), later deliveries add nothing; a delivery that
 * arrives while it runs is kept (`keepLastIfActive`) and becomes exactly one more run when it
 * finishes. Plain deduplication would drop that delivery. Replays get an id of their own, so a
 * waiting webhook job never swallows them; the product lock serialises them with it.
 */
export function syncProductJobOptions(
  sync: ConnectorConfig['sync'],
  payload: SyncProductPayload,
): JobsOptions {
  const subject = `${payload.shop}:${payload.productId}`;
  const id = payload.reason === 'replay' ? `replay:${payload.failureId}:${subject}` : `sync:${subject}`;
  return {
    deduplication: { id, keepLastIfActive: true },
    delay: payload.reason === 'replay' ? 0 : sync.debounceMs,
    attempts: sync.attempts,
    backoff: { type: 'exponential', delay: sync.backoffMs },
    removeOnComplete: { age: 24 * HOUR_S, count: 10_000 },
    removeOnFail: { age: 7 * 24 * HOUR_S },
  };
}

/** The inbox sweeper: one job per interval across all replicas (a job scheduler), kept briefly. */
export function inboxSweepJobOptions(): JobsOptions {
  return {
    attempts: 1,
    removeOnComplete: { count: 10 },
    removeOnFail: { count: 50 },
  };
}
