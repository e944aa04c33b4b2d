import type { Job, Queue } from 'bullmq';
import { restartsSyncDebounce, syncDeduplicationId, type WaitingSync } from './job-options.js';
import type { SyncProductPayload } from './job-payloads.js';

/**
 * What a webhook delivery's add needs to know of the product's sync job, read once just before
 * the add: `inFlight` when there is one at all (a delivery then never takes the leading edge),
 * `waiting` when the job never ran (its debounce restarts: `syncProductJobOptions`), and
 * `lowPriority` when the job waits at a priority (a bulk lane's job: a resync's, reconciliation's
 * or scope walk's; or a live job queued behind its shop's own earlier requests), so the delivery
 * raises it to its own priority when that is higher (`raiseJoinedSync`).
 */
export interface JoinedSync {
  /** The product has a sync job (waiting, delayed or running): the delivery cannot lead. */
  inFlight?: boolean;
  waiting?: WaitingSync;
  lowPriority?: Job<SyncProductPayload>;
}

/**
 * Reads the product's sync job before a webhook delivery is added.
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
export async function readJoinedSync(
  queue: Queue<SyncProductPayload>,
  payload: SyncProductPayload,
): Promise<JoinedSync> {
  if (!restartsSyncDebounce(payload)) return {};
  const jobId = await queue.getDeduplicationJobId(syncDeduplicationId(payload));
  if (!jobId) return {};
  const job = await queue.getJob(jobId);
  if (!job) return {};
  const lowPriority = job.priority > 0 ? job : undefined;
  // A finished job the key still names (a backend that clears it lazily) is not in flight.
  const inFlight = !job.finishedOn;
  if (job.attemptsStarted > 0 || job.attemptsMade > 0) return { inFlight, lowPriority };
  // BullMQ stamps and schedules jobs on wall-clock time, hence `Date.now()`, not the injected clock.
  return { inFlight, waiting: { since: job.timestamp, now: Date.now() }, lowPriority };
}

/**
 * Live edits go ahead of bulk work: a delivery that joined the product's waiting resync (or
 * reconciliation, or scope) job moves that job to the delivery's own priority (its turn in the
 * live lane: `lanePriority`), so the edit is not queued behind the rest of the shop; a job
 * already at that priority or ahead is left alone. The job keeps its reason (it plans with a
 * canonical read, since a delivery arrived after its snapshot began: `SyncProductJob`), its id and
 * its wait: a job in back-off stays delayed and only comes back at its new place. Once the job
 * has run and gone, there is nothing to raise (the delivery's add made its own job at its priority).
 */
export async function raiseJoinedSync(job: Job<SyncProductPayload>, priority: number): Promise<void> {
  if (job.priority <= priority) return;
  try {
    await job.changePriority({ priority });
  } catch (error) {
    if ((await job.getState()) !== 'unknown') throw error;
  }
}
