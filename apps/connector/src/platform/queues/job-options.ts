import type { JobsOptions } from 'bullmq';
import type { ConnectorConfig } from '../config/connector.config.js';
import type {
  AlertDeliveryPayload,
  EnrichmentPushPayload,
  SyncMediaPayload,
  SyncProductPayload,
} from './job-payloads.js';
import { type Lane, lanePriority } from './shop-lanes.js';

const HOUR_S = 3_600;

/**
 * Finished jobs of the busy kinds (sync, media, push, alert) kept for the admin views (a product's
 * timeline shows the queue's 500 newest jobs; the runs themselves are in the sync records): ten
 * minutes, by age alone. A count would cost every finish on the PostgreSQL queue backend (the
 * embedded default): it deletes the completed jobs beyond the count with a statement that reads
 * all the kept ones, 2.6 ms at 1,000 and 5 ms at 10,000, most of PostgreSQL's time in a resync
 * at 100/s (bench `tenants`, pg_stat_statements); the age trim reads only the expired ones, through
 * an index. The price on Redis: up to ten minutes of finished jobs in memory (60,000 at 100/s).
 */
const KEEP_COMPLETED = { age: 10 * 60 };

/**
 * Every job's BullMQ options, built here and nowhere else: ids and deduplication, attempts,
 * back-off, delay and retention.
 *
 * Product syncs coalesce on one deduplication id per product (`syncDeduplicationId`). A delivery
 * that arrives while the job runs is kept (`keepLastIfActive`) and becomes exactly one more run
 * when it finishes; plain deduplication would drop it. Replays get an id of their own and no
 * delay, so a waiting job never swallows them; the product lock serialises them with it.
 *
 * The debounce has a leading edge: a webhook delivery for a product with no sync job in flight
 * and no delivery within the last debounce period (`lead`, decided by `SyncEnqueuer` with
 * `RecentDeliveries`) gets no delay, so a lone edit syncs at once; the deliveries that follow
 * within the period make one trailing job, which waits as below. A burst is then two runs, the
 * first at once and the second after it ends.
 *
 * The trailing debounce restarts with each delivery, up to a maximum wait: a webhook delivery for a
 * product whose job still waits out its first delay (`waiting`, read by `readJoinedSync` just
 * before the add) moves that job to `debounceMs` from now, but never past `debounceMaxMs` after
 * the job's first delivery. A storm is then one run shortly after it ends, and a product edited
 * without pause still syncs once per maximum wait. BullMQ's `reschedule` does the move in the
 * same atomic add: it keeps the waiting job (its id, data, reason and priority) and only changes
 * its delay, and only while it is delayed; a running job still gets its one more run. Not
 * `replace` (BullMQ's debounce mode): it deletes the delayed job and adds the delivery's, so a
 * job waiting out a retry's back-off would start again at attempt 1, and a `resync` or `drift`
 * job would become a `webhook` one, which may skip the product.
 *
 * Every other wait is left alone: a job retrying after a failure (a delivery must not bring its
 * back-off forward, or a storm would spend the attempts in seconds), one put off by the job
 * itself (a busy product lock, a paused catalog, a delete's grace), one already due. Without
 * `waiting`, the add is what it always was: a new job waits `debounceMs` (none when it leads), an
 * existing one absorbs the call. Only webhook deliveries restart the wait (`restartsSyncDebounce`): sweeps, resyncs,
 * reconciliation and drift are not edits, so they join a waiting job as they are.
 */
export function syncProductJobOptions(
  sync: ConnectorConfig['sync'],
  payload: SyncProductPayload,
  waiting?: WaitingSync,
  lead = false,
  turn = 0,
): JobsOptions {
  const priority = lanePriority(syncLane(payload), turn);
  const replay = payload.reason === 'replay' || payload.reason === 'operator'; // both asked for now
  // The leading edge: a lone delivery syncs at once (`SyncEnqueuer` decides; only a webhook's).
  const now = replay || (lead && restartsSyncDebounce(payload) && waiting === undefined);
  const left =
    waiting !== undefined && restartsSyncDebounce(payload)
      ? waiting.since + sync.debounceMaxMs - waiting.now
      : 0;
  return {
    deduplication: {
      id: syncDeduplicationId(payload),
      keepLastIfActive: true,
      ...(left > 0 ? { reschedule: true } : {}),
    },
    delay:
      now || BULK_REASONS.has(payload.reason)
        ? 0
        : left > 0
          ? Math.min(sync.debounceMs, left)
          : sync.debounceMs,
    attempts: sync.attempts,
    backoff: { type: 'exponential', delay: sync.backoffMs },
    removeOnComplete: KEEP_COMPLETED,
    removeOnFail: { age: 7 * 24 * HOUR_S },
    ...(priority > 0 ? { priority } : {}),
  };
}

/**
 * A product's sync job that still waits out its first delay, as `readJoinedSync` found it just
 * before an add: when it was created (its first delivery; BullMQ's wall-clock `timestamp`) and
 * the wall-clock time of the read.
 */
export interface WaitingSync {
  since: number;
  now: number;
}

/** The deduplication id of a product's sync jobs; a replay has one of its own. */
export function syncDeduplicationId(payload: SyncProductPayload): string {
  const subject = `${payload.shop}:${payload.productId}`;
  return payload.reason === 'replay' ? `replay:${payload.failureId}:${subject}` : `sync:${subject}`;
}

/** Does this request restart a waiting job's debounce? Only a webhook delivery: an edit. */
export function restartsSyncDebounce(payload: SyncProductPayload): boolean {
  return payload.reason === 'webhook';
}

/**
 * Syncs of a shop's worth of products go in the bulk lane (`lanePriority`): a whole-shop resync,
 * the reconciliation, a changed scope, configuration drift, a shop going live. They wait behind
 * every live sync (a webhook's, a sweep's, a replay's, an operator's), of every shop, so a
 * merchant's edit is not queued behind a shop's worth of resync. A delivery for a product whose
 * bulk job waits joins that job and raises it to its own priority (`raiseJoinedSync`), so the
 * edit does not wait for the bulk work's turn. They have no debounce delay: nothing bursts behind
 * them to coalesce, and a delay would only leave the catalog budget idle.
 */
const BULK_REASONS: ReadonlySet<SyncProductPayload['reason']> = new Set([
  'resync',
  'reconcile',
  'scope',
  'drift',
  'go-live',
]);

/** The lane of a product sync: bulk for a shop's worth of work (`BULK_REASONS`), live otherwise. */
export function syncLane(payload: Pick<SyncProductPayload, 'reason'>): Lane {
  return BULK_REASONS.has(payload.reason) ? 'bulk' : 'live';
}

/** A shop's drift report: behind the scheduled job that enqueues them (one per shop, so FIFO is fair). */
const BULK_PRIORITY = 10;

/** The inbox sweeper: one job per interval across all replicas (a job scheduler), kept briefly. */
export function inboxSweepJobOptions(): JobsOptions {
  return {
    attempts: 1,
    removeOnComplete: { count: 10 },
    removeOnFail: { count: 50 },
  };
}

/** The retention job: one run per interval across all replicas (a job scheduler), kept briefly. */
export function retentionJobOptions(): JobsOptions {
  return {
    attempts: 1,
    removeOnComplete: { count: 10 },
    removeOnFail: { count: 50 },
  };
}

/**
 * A product's media job. Coalesced per product like the sync (one deduplication id, the last
 * request kept while one runs), delayed a little so a burst of syncs becomes one run. Its
 * priority is its lane's (`lanePriority`): a replay, or the media of a live sync, in the live
 * lane; the media of a bulk sync (a resync's) in the bulk lane, so a shop's resync images never
 * hold up another shop's edit's. Images never hold up attribute sync either way (their own queue;
 * their catalog calls go at the budget's `bulk` priority). A failed run retries with exponential
 * back-off.
 */
export function syncMediaJobOptions(
  media: ConnectorConfig['media'],
  payload: SyncMediaPayload,
  lane: Lane = 'live',
  turn = 0,
): JobsOptions {
  const priority = lanePriority(lane, turn);
  return {
    deduplication: { id: `media:${payload.shop}:${payload.productId}`, keepLastIfActive: true },
    delay: payload.reason === 'replay' ? 0 : media.delayMs,
    ...(priority > 0 ? { priority } : {}),
    attempts: media.attempts,
    backoff: { type: 'exponential', delay: media.backoffMs },
    removeOnComplete: KEEP_COMPLETED,
    removeOnFail: { age: 7 * 24 * HOUR_S },
  };
}

/**
 * One page of a resync run: its id names the run and the page, so a page enqueued twice (resumed
 * at boot while its job still waits) is one job. Retried like a sync; the cursor only moves
 * once a page's products are enqueued, so a retry repeats at most that page (enqueueing dedupes).
 */
export function resyncPageJobOptions(
  sync: ConnectorConfig['sync'],
  runId: string,
  page: number,
): JobsOptions {
  return {
    jobId: `resync-${runId}-${page}`,
    attempts: sync.attempts,
    backoff: { type: 'exponential', delay: sync.backoffMs },
    removeOnComplete: KEEP_COMPLETED,
    removeOnFail: { age: 7 * 24 * HOUR_S },
  };
}

/** The reconciliation: one job per interval across all replicas (a job scheduler), kept briefly. */
export function reconcileJobOptions(): JobsOptions {
  return { attempts: 1, removeOnComplete: { count: 10 }, removeOnFail: { count: 50 } };
}

/** The subscription check: one job per interval across all replicas (a job scheduler), kept briefly. */
export function subscriptionCheckJobOptions(): JobsOptions {
  return { attempts: 1, removeOnComplete: { count: 10 }, removeOnFail: { count: 50 } };
}

/**
 * A walk of scoped collections: the scheduled one like the reconciliation; one asked for by a
 * `collections/*` delivery is coalesced per shop while it waits, and retried a few times.
 */
export function scopeWalkJobOptions(shop?: string): JobsOptions {
  if (shop === undefined)
    return { attempts: 1, removeOnComplete: { count: 10 }, removeOnFail: { count: 50 } };
  return {
    deduplication: { id: `scope-walk:${shop}` },
    attempts: 5,
    backoff: { type: 'exponential', delay: 5_000 },
    removeOnComplete: { count: 100 },
    removeOnFail: { age: 7 * 24 * HOUR_S },
  };
}

/**
 * A drift report: the scheduled job (no shop) only enqueues, one attempt; a shop's report is
 * coalesced per shop while it waits (one per shop: the queue's order is fair), runs behind the
 * scheduled job (`BULK_PRIORITY`; its catalog reads go at the budget's `bulk` priority), and is
 * retried a couple of times before it lands in the failures inbox.
 */
export function driftReportJobOptions(shop?: string): JobsOptions {
  if (shop === undefined)
    return { attempts: 1, removeOnComplete: { count: 10 }, removeOnFail: { count: 50 } };
  return {
    deduplication: { id: `drift-report:${shop}` },
    priority: BULK_PRIORITY,
    attempts: 3,
    backoff: { type: 'exponential', delay: 30_000 },
    removeOnComplete: { count: 100 },
    removeOnFail: { age: 7 * 24 * HOUR_S },
  };
}

/** A poll: one attempt (the next one goes on from the stored checkpoint), kept for a while. */
export function enrichmentPollJobOptions(jobId?: string): JobsOptions {
  return {
    ...(jobId ? { jobId } : {}),
    attempts: 1,
    removeOnComplete: KEEP_COMPLETED,
    removeOnFail: { age: 7 * 24 * HOUR_S },
  };
}

/** The deduplication id of the early poll: one waits at a time (`EarlyPolls` adds shops to it). */
export const EARLY_POLL_DEDUPLICATION_ID = 'enrichment-poll:early';

/**
 * An early poll (`EarlyPolls`): one at a time across replicas (every poll that ends asks for the
 * next; a deduplication id keeps the first ask while it waits), after `delayMs`. Its own job id
 * (the poll's run id), never reused, as an operator's poll has.
 *
 * The deduplication key lives `delayMs`, until the early poll is due, not until it finishes:
 * each early poll asks for the next one while it runs (`EnrichmentPollJob`), and a key held by
 * the running job would drop that ask, so the chain stopped after one early poll. Asks that come
 * while one waits (replicas ending polls at once, the schedule's poll) are still one.
 */
export function earlyEnrichmentPollJobOptions(delayMs: number, jobId: string): JobsOptions {
  return {
    ...enrichmentPollJobOptions(jobId),
    deduplication: { id: EARLY_POLL_DEDUPLICATION_ID, ttl: Math.max(1, delayMs) },
    delay: delayMs,
  };
}

/**
 * One product's write-back, coalesced per product like a sync: work found while the job waits
 * adds nothing; work found while it runs becomes exactly one more run (`keepLastIfActive`).
 */
export function enrichmentPushJobOptions(
  enrichment: ConnectorConfig['enrichment'],
  payload: EnrichmentPushPayload,
  turn = 0,
): JobsOptions {
  const priority = lanePriority(pushLane(payload), turn);
  const subject = `${payload.shop}:${payload.productId}`;
  const id =
    payload.reason === 'replay'
      ? `replay:${payload.failureId}:${subject}`
      : payload.reason === 'overwrite'
        ? `overwrite:${subject}:${(payload.overwrite ?? []).join(',')}`
        : `push:${subject}`;
  return {
    deduplication: { id, keepLastIfActive: true },
    ...(priority > 0 ? { priority } : {}),
    attempts: enrichment.pushAttempts,
    backoff: { type: 'exponential', delay: enrichment.pushBackoffMs },
    removeOnComplete: KEEP_COMPLETED,
    removeOnFail: { age: 7 * 24 * HOUR_S },
  };
}

/** The lane of a write-back: a shop going live pushes a shop's worth (bulk); the others are live. */
export function pushLane(payload: Pick<EnrichmentPushPayload, 'reason'>): Lane {
  return payload.reason === 'go-live' ? 'bulk' : 'live';
}

/** The alerts' scheduled look at the shops: one job per interval across all replicas, kept briefly. */
export function alertCheckJobOptions(): JobsOptions {
  return { attempts: 1, removeOnComplete: { count: 10 }, removeOnFail: { count: 50 } };
}

/**
 * One alert's delivery to one target: its id names the delivery (a replay's, the failure too),
 * so enqueueing a pending delivery again while its job waits or retries adds nothing; retried
 * with exponential back-off (a receiver's outage), then the failures inbox. Completed jobs are
 * kept a day, so a pending row read just before its job finished is not sent twice.
 */
export function alertDeliveryJobOptions(
  alerts: ConnectorConfig['alerts'],
  payload: Required<Pick<AlertDeliveryPayload, 'deliveryId'>> & AlertDeliveryPayload,
): JobsOptions {
  const replay = payload.failureId === undefined ? '' : `-replay-${payload.failureId}`;
  return {
    jobId: `alert-${payload.deliveryId}${replay}`,
    attempts: alerts.attempts,
    backoff: { type: 'exponential', delay: alerts.backoffMs },
    removeOnComplete: KEEP_COMPLETED,
    removeOnFail: { age: 7 * 24 * HOUR_S },
  };
}
