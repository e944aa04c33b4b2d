import { InjectQueue } from '@nestjs/bullmq';
import { Injectable, type OnApplicationBootstrap } from '@nestjs/common';
import type { JobsOptions, Queue } from 'bullmq';
import {
  EnrichmentSettings,
  InboxSettings,
  ReconcileSettings,
  RetentionSettings,
  ShopifySettings,
  SyncSettings,
} from '../config/settings.js';
import {
  driftReportJobOptions,
  enrichmentPollJobOptions,
  inboxSweepJobOptions,
  reconcileJobOptions,
  retentionJobOptions,
  scopeWalkJobOptions,
  subscriptionCheckJobOptions,
} from './job-options.js';
import { JobName, QueueName } from './queue-names.js';

/** One repeatable job: a BullMQ job scheduler that only enqueues, once per interval across replicas. */
export interface RepeatableJob {
  name: JobName;
  queue: Queue;
  everyMs: number;
  data: () => object;
  /** A factory: BullMQ may change the options object it is given, so each upsert gets its own. */
  opts: () => JobsOptions;
}

/**
 * Why: every scheduled job of the connector in one place (the inbox sweep, the enrichment poll,
 * reconciliation, retention, the subscription check), created at boot with one call each, and re-creatable at any time
 * reconciliation, retention, the walk of scoped collections), created at boot with one call each, and re-creatable at any time
 * (a queue backend that lost its data); the drift report's only when `CONNECTOR_DRIFT_INTERVAL_MS` is not 0. Each job's work lives in its feature's `*.job.ts`.
 */
@Injectable()
export class JobSchedulers implements OnApplicationBootstrap {
  readonly all: readonly RepeatableJob[];
  /** True once the boot-time creation finished: from then on, a missing scheduler was lost. */
  booted = false;
  private readonly driftQueue: Queue;
  private readonly driftEveryMs: number;

  constructor(
    inbox: InboxSettings,
    enrichment: EnrichmentSettings,
    reconcile: ReconcileSettings,
    retention: RetentionSettings,
    shopify: ShopifySettings,
    sync: SyncSettings,
    @InjectQueue(QueueName.INBOX_SWEEP) sweepQueue: Queue,
    @InjectQueue(QueueName.ENRICHMENT_POLL) pollQueue: Queue,
    @InjectQueue(QueueName.RECONCILE) reconcileQueue: Queue,
    @InjectQueue(QueueName.RETENTION) retentionQueue: Queue,
    @InjectQueue(QueueName.SUBSCRIPTION_CHECK) subscriptionQueue: Queue,
    @InjectQueue(QueueName.SCOPE_WALK) scopeWalkQueue: Queue,
    @InjectQueue(QueueName.DRIFT_REPORT) driftQueue: Queue,
  ) {
    this.driftQueue = driftQueue;
    this.driftEveryMs = reconcile.driftIntervalMs;
    this.all = [
      {
        name: JobName.INBOX_SWEEP,
        queue: sweepQueue,
        everyMs: inbox.sweepIntervalMs,
        data: () => ({}),
        opts: inboxSweepJobOptions,
      },
      {
        name: JobName.ENRICHMENT_POLL,
        queue: pollQueue,
        everyMs: enrichment.pollIntervalMs,
        data: () => ({ trigger: 'schedule' }),
        opts: () => enrichmentPollJobOptions(),
      },
      {
        name: JobName.RECONCILE,
        queue: reconcileQueue,
        everyMs: reconcile.intervalMs,
        data: () => ({}),
        opts: reconcileJobOptions,
      },
      {
        name: JobName.RETENTION,
        queue: retentionQueue,
        everyMs: retention.intervalMs,
        data: () => ({}),
        opts: retentionJobOptions,
      },
      {
        name: JobName.SUBSCRIPTION_CHECK,
        queue: subscriptionQueue,
        everyMs: shopify.subscriptionCheckMs,
        data: () => ({}),
        opts: subscriptionCheckJobOptions,
      },
      {
        name: JobName.SCOPE_WALK,
        queue: scopeWalkQueue,
        everyMs: sync.scopeWalkIntervalMs,
        data: () => ({}),
        opts: () => scopeWalkJobOptions(),
      },
      // The drift report: `CONNECTOR_DRIFT_INTERVAL_MS=0` leaves it out (and `ensure` removes it).
      ...(reconcile.driftIntervalMs > 0
        ? [
            {
              name: JobName.DRIFT_REPORT,
              queue: driftQueue,
              everyMs: reconcile.driftIntervalMs,
              data: () => ({}),
              opts: () => driftReportJobOptions(),
            },
          ]
        : []),
    ];
  }

  async onApplicationBootstrap(): Promise<void> {
    await this.ensure();
    this.booted = true;
  }

  /** Creates (or updates) every scheduler; idempotent, so replicas and repeats are harmless. */
  async ensure(): Promise<void> {
    for (const job of this.all) {
      await job.queue.upsertJobScheduler(
        job.name,
        { every: job.everyMs },
        { name: job.name, data: job.data(), opts: job.opts() },
      );
    }
    // A schedule turned off stays off across restarts: a scheduler an earlier boot made goes.
    if (this.driftEveryMs === 0) await this.driftQueue.removeJobScheduler(JobName.DRIFT_REPORT);
  }
}
