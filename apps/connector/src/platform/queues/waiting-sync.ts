import type { Queue } from 'bullmq';
import { restartsSyncDebounce, syncDeduplicationId, type WaitingSync } from './job-options.js';
import type { SyncProductPayload } from './job-payloads.js';

/**
 * Reads the product's sync job before a webhook delivery is added, for the restarting debounce
 * (`syncProductJobOptions`): the job's first delivery bounds how far deliveries may put it off.
 *
 * Read from the queue rather than kept in memory or taken from the inbox: every replica sees the
 * same job, so the maximum wait holds across replicas, and the job also tells whether it has
 * started: only a job that never ran (attempts neither started nor made) is in its debounce; one
 * that ran is waiting out a back-off or a wait it chose itself, and is left alone. Two reads (the
 * deduplication key, then the job) per webhook add; the adds that do not restart anything skip
 * them.
 *
 * Not atomic with the add. If the job starts in between, the add finds it running and keeps the
 * delivery for one more run, as always; if it also failed and went into back-off within those
 * milliseconds, that one retry may come forward to the debounce. If the job appears in between,
 * the add joins it without restarting its wait, and the next delivery restarts it.
 */
export async function waitingSync(
  queue: Queue<SyncProductPayload>,
  payload: SyncProductPayload,
): Promise<WaitingSync | undefined> {
  if (!restartsSyncDebounce(payload)) return undefined;
  const jobId = await queue.getDeduplicationJobId(syncDeduplicationId(payload));
  if (!jobId) return undefined;
  const job = await queue.getJob(jobId);
  if (!job || job.attemptsStarted > 0 || job.attemptsMade > 0) return undefined;
  // BullMQ stamps and schedules jobs on wall-clock time, hence `Date.now()`, not the injected clock.
  return { since: job.timestamp, now: Date.now() };
}
