import type { JobsOptions } from 'bullmq';
import type { ConnectorConfig } from '../config/connector.config.js';
import {
  alertCheckJobOptions,
  driftReportJobOptions,
  enrichmentPollJobOptions,
  inboxSweepJobOptions,
  reconcileJobOptions,
  retentionJobOptions,
  scopeWalkJobOptions,
  subscriptionCheckJobOptions,
} from './job-options.js';
import { QueueName } from './queue-names.js';

/** The configuration sections a schedule's interval is read from. */
export type ScheduleConfig = Pick<
  ConnectorConfig,
  'inbox' | 'enrichment' | 'reconcile' | 'retention' | 'shopify' | 'sync' | 'alerts'
>;

/** A queue's repeatable job: a BullMQ job scheduler that only enqueues, once per interval across replicas. */
export interface QueueSchedule {
  /** The setting its interval comes from (`CONNECTOR_*`); 0 turns the schedule off (its scheduler is removed). */
  setting: string;
  everyMs: (config: ScheduleConfig) => number;
  data: () => object;
  /** A factory: BullMQ may change the options object it is given, so each upsert gets its own. */
  opts: () => JobsOptions;
  /**
   * Its job visits every shop, each once a period, spread over it (`schedule-spread.ts`): the
   * scheduler ticks several times a period and each tick takes the shops whose turn came.
   */
  spread?: true;
}

/**
 * What a failed job does. `attempts`/`backoff` are numbers or the setting they come from;
 * `failuresInbox`: a permanent error, or the last attempt's, lands in the failures inbox (most
 * jobs run in `JobGuard`), from where it can be replayed; otherwise the next run starts afresh.
 */
export interface RetryRule {
  attempts: number | string;
  backoff: 'none' | `exponential from ${string}`;
  failuresInbox: boolean;
}

/** One queue of the flow. */
export interface QueueFlow {
  queue: QueueName;
  /** The job class processing it (`@Processor`), and its file under `src/`. */
  job: { className: string; file: string };
  /** The classes that inject the queue to add jobs to it (besides its scheduler). */
  enqueuedBy: readonly string[];
  /** Classes that inject the queue only to read it (counts, a product's jobs). */
  readBy?: readonly string[];
  schedule: QueueSchedule | null;
  retry: RetryRule;
  /**
   * The class that registers the queue's replay handler with `ReplayRegistry` at module init:
   * what "replay" in the failures inbox runs for a failure of this queue (a failure's job kind is
   * its queue's name). null: a failure is not replayable (logged; the next run starts afresh).
   * A queue has one exactly when `retry.failuresInbox`; checked at boot (`RegistrationsCheck`).
   */
  replayBy: string | null;
  /**
   * What runs after each job, inside it, in order: the after-sync listeners (`SyncEvents`) the
   * app's assembly gives the sync (`afterSyncModule`, connector.module.ts). Checked by the spec.
   */
  after?: readonly string[];
}

const ONE_ATTEMPT: RetryRule = { attempts: 1, backoff: 'none', failuresInbox: false };

/**
 * Why: the connector's flow in one place. Each queue, its job file, who enqueues it, its schedule,
 * its retry rule and who replays its failures: a reader follows a hop reached by a queue's name
 * here. `JobSchedulers` sets up the schedules from it, `JobClassesCheck` fails the boot when the
 * processors disagree with it, `RegistrationsCheck` when the replay handlers registered at boot
 * do, and `queue-flow.spec.ts` checks "who enqueues" and "who replays" against the sources. The
 * other boot-time registrations (the tables retention prunes, the tables `shop/redact` purges)
 * are listed beside, in `platform/reporting/housekeeping.ts`.
 */
export const QUEUE_FLOW: readonly QueueFlow[] = [
  {
    queue: QueueName.SYNC_PRODUCT,
    job: { className: 'SyncProductJob', file: 'product-sync/sync-product.job.ts' },
    replayBy: 'SyncReplay',
    enqueuedBy: ['SyncEnqueuer'],
    readBy: ['Readiness', 'ProductTimeline'],
    after: ['MediaHooks', 'ResyncProgress', 'MerchantEdits'],
    schedule: null,
    retry: {
      attempts: 'CONNECTOR_SYNC_ATTEMPTS',
      backoff: 'exponential from CONNECTOR_SYNC_BACKOFF_MS',
      failuresInbox: true,
    },
  },
  {
    queue: QueueName.INBOX_SWEEP,
    job: { className: 'InboxSweepJob', file: 'intake/inbox-sweep.job.ts' },
    replayBy: null,
    enqueuedBy: [],
    schedule: {
      setting: 'CONNECTOR_INBOX_SWEEP_INTERVAL_MS',
      everyMs: (c) => c.inbox.sweepIntervalMs,
      data: () => ({}),
      opts: inboxSweepJobOptions,
    },
    retry: ONE_ATTEMPT,
  },
  {
    queue: QueueName.SYNC_MEDIA,
    job: { className: 'SyncMediaJob', file: 'media/sync-media.job.ts' },
    replayBy: 'MediaHooks',
    enqueuedBy: ['MediaEnqueuer'],
    schedule: null,
    retry: {
      attempts: 'CONNECTOR_MEDIA_ATTEMPTS',
      backoff: 'exponential from CONNECTOR_MEDIA_BACKOFF_MS',
      failuresInbox: true,
    },
  },
  {
    queue: QueueName.RESYNC_PAGE,
    job: { className: 'ResyncPageJob', file: 'resync/resync-page.job.ts' },
    replayBy: 'ResyncPageReplay',
    enqueuedBy: ['ResyncService'],
    schedule: null,
    retry: {
      attempts: 'CONNECTOR_SYNC_ATTEMPTS',
      backoff: 'exponential from CONNECTOR_SYNC_BACKOFF_MS',
      failuresInbox: true,
    },
  },
  {
    queue: QueueName.RECONCILE,
    job: { className: 'ReconcileJob', file: 'resync/reconcile.job.ts' },
    replayBy: null,
    enqueuedBy: [],
    schedule: {
      setting: 'CONNECTOR_RECONCILE_INTERVAL_MS',
      spread: true,
      everyMs: (c) => c.reconcile.intervalMs,
      data: () => ({}),
      opts: reconcileJobOptions,
    },
    retry: ONE_ATTEMPT,
  },
  {
    queue: QueueName.RETENTION,
    job: { className: 'RetentionJob', file: 'platform/database/retention.job.ts' },
    replayBy: null,
    enqueuedBy: [],
    schedule: {
      setting: 'CONNECTOR_RETENTION_INTERVAL_MS',
      everyMs: (c) => c.retention.intervalMs,
      data: () => ({}),
      opts: retentionJobOptions,
    },
    // Prunes the tables of `HOUSEKEEPING.pruned` (platform/reporting/housekeeping.ts).
    retry: ONE_ATTEMPT,
  },
  {
    queue: QueueName.ENRICHMENT_POLL,
    job: { className: 'EnrichmentPollJob', file: 'write-back/enrichment-poll.job.ts' },
    replayBy: 'EnrichmentPollScheduler',
    // EarlyPolls: the poll job's own early poll while records wait (delayed, deduplicated).
    enqueuedBy: ['EarlyPolls', 'EnrichmentPollScheduler'],
    schedule: {
      setting: 'CONNECTOR_ENRICHMENT_POLL_INTERVAL_MS',
      spread: true,
      everyMs: (c) => c.enrichment.pollIntervalMs,
      data: () => ({ trigger: 'schedule' }),
      opts: () => enrichmentPollJobOptions(),
    },
    // One attempt: the next poll goes on from the stored checkpoint.
    retry: { attempts: 1, backoff: 'none', failuresInbox: true },
  },
  {
    queue: QueueName.ENRICHMENT_PUSH,
    job: { className: 'EnrichmentPushJob', file: 'write-back/enrichment-push.job.ts' },
    replayBy: 'EnrichmentPushJob',
    enqueuedBy: ['PushEnqueuer'],
    schedule: null,
    retry: {
      attempts: 'CONNECTOR_ENRICHMENT_PUSH_ATTEMPTS',
      backoff: 'exponential from CONNECTOR_ENRICHMENT_PUSH_BACKOFF_MS',
      failuresInbox: true,
    },
  },
  {
    queue: QueueName.SUBSCRIPTION_CHECK,
    job: { className: 'SubscriptionCheckJob', file: 'intake/subscription-check.job.ts' },
    replayBy: null,
    enqueuedBy: ['SubscriptionCheckRequests'],
    schedule: {
      setting: 'CONNECTOR_SHOPIFY_SUBSCRIPTION_CHECK_MS',
      spread: true,
      everyMs: (c) => c.shopify.subscriptionCheckMs,
      data: () => ({}),
      opts: subscriptionCheckJobOptions,
    },
    // Not in the failures inbox: no job guard and no replay, a failed check is only logged.
    retry: ONE_ATTEMPT,
  },
  {
    queue: QueueName.SCOPE_WALK,
    job: { className: 'ScopeWalkJob', file: 'product-sync/scope/scope-walk.job.ts' },
    replayBy: null,
    enqueuedBy: ['ScopeWalkRequests'],
    schedule: {
      setting: 'CONNECTOR_SCOPE_WALK_INTERVAL_MS',
      spread: true,
      everyMs: (c) => c.sync.scopeWalkIntervalMs,
      data: () => ({}),
      opts: () => scopeWalkJobOptions(),
    },
    // The scheduled walk: one attempt; a shop's walk (after a `collections/*` delivery): 5, from 5 s.
    retry: { attempts: 5, backoff: 'exponential from 5000', failuresInbox: false },
  },
  {
    queue: QueueName.DRIFT_REPORT,
    job: { className: 'DriftReportJob', file: 'drift/drift-report.job.ts' },
    replayBy: 'DriftReportReplay',
    // The scheduled job fans out one job per shop; a failed shop's report is replayed.
    enqueuedBy: ['DriftReportJob', 'DriftReportReplay'],
    schedule: {
      setting: 'CONNECTOR_DRIFT_INTERVAL_MS',
      spread: true,
      everyMs: (c) => c.reconcile.driftIntervalMs,
      data: () => ({}),
      opts: () => driftReportJobOptions(),
    },
    // The scheduled job: one attempt; a shop's report: 3, from 30 s, then the failures inbox.
    retry: { attempts: 3, backoff: 'exponential from 30000', failuresInbox: true },
  },
  {
    queue: QueueName.ALERT_DELIVERY,
    job: { className: 'AlertDeliveryJob', file: 'operations/alerts/alert-delivery.job.ts' },
    // The scheduled job looks at every shop's state and enqueues one delivery per target and
    // change that held for the debounce; a delivery that failed for good is replayed.
    enqueuedBy: ['AlertEnqueuer'],
    replayBy: 'AlertRegistrations',
    schedule: {
      setting: 'CONNECTOR_ALERT_CHECK_INTERVAL_MS',
      everyMs: (c) => c.alerts.checkIntervalMs,
      data: () => ({}),
      opts: alertCheckJobOptions,
    },
    // The scheduled job: one attempt; a delivery: CONNECTOR_ALERT_ATTEMPTS, then the failures inbox.
    retry: {
      attempts: 'CONNECTOR_ALERT_ATTEMPTS',
      backoff: 'exponential from CONNECTOR_ALERT_BACKOFF_MS',
      failuresInbox: true,
    },
  },
];

/** A queue's row of the flow table; every queue has one (`flowProblems` checks it at boot). */
export function flowOf(queue: QueueName): QueueFlow {
  const row = QUEUE_FLOW.find((f) => f.queue === queue);
  if (row === undefined) throw new Error(`queue "${queue}" is not in the flow table (queue-flow.ts)`);
  return row;
}

/**
 * Why the flow table, the queues and the registered job classes disagree: a queue without a row
 * or a job class (it would fill up silently), two classes on one queue (they would race), a class
 * on a queue the table does not name, a class other than the table's, a scheduler for a queue the
 * table gives no schedule. Empty when all is well.
 */
export function flowProblems(
  table: readonly QueueFlow[],
  queues: readonly string[],
  jobClasses: ReadonlyArray<{ queue: string; className: string }>,
  schedulers: readonly string[] = [],
): string[] {
  const problems: string[] = [];
  for (const queue of queues) {
    if (!table.some((f) => f.queue === queue)) problems.push(`queue "${queue}" is not in the flow table`);
  }
  for (const row of table) {
    if (!queues.includes(row.queue)) problems.push(`the flow table names unregistered queue "${row.queue}"`);
    const owners = jobClasses.filter((c) => c.queue === row.queue).map((c) => c.className);
    if (owners.length === 0) problems.push(`queue "${row.queue}" has no job class`);
    else if (owners.length > 1)
      problems.push(`queue "${row.queue}" has several job classes: ${owners.join(', ')}`);
    else if (owners[0] !== row.job.className)
      problems.push(
        `queue "${row.queue}" is processed by ${owners[0]}, the flow table says ${row.job.className}`,
      );
  }
  for (const c of jobClasses) {
    if (!table.some((f) => f.queue === c.queue))
      problems.push(`${c.className} processes queue "${c.queue}", which the flow table does not name`);
  }
  for (const queue of schedulers) {
    if (!table.some((f) => f.queue === queue && f.schedule !== null))
      problems.push(`a scheduler runs for queue "${queue}", which the flow table gives no schedule`);
  }
  return problems;
}
