import { getQueueToken } from '@nestjs/bullmq';
import type { FactoryProvider, OnApplicationBootstrap } from '@nestjs/common';
import type { JobsOptions, Queue } from 'bullmq';
import {
  AlertSettings,
  EnrichmentSettings,
  InboxSettings,
  ReconcileSettings,
  RetentionSettings,
  ShopifySettings,
  SyncSettings,
} from '../config/settings.js';
import { QUEUE_FLOW, type ScheduleConfig } from './queue-flow.js';
import type { JobName, QueueName } from './queue-names.js';
import { tickMs } from './schedule-spread.js';

/** One repeatable job: a BullMQ job scheduler that only enqueues, once per interval across replicas. */
export interface RepeatableJob {
  name: JobName;
  queue: Queue;
  /** How often its job runs: the period, or a spread schedule's tick (`schedule-spread.ts`). */
  everyMs: number;
  /** The schedule's period (its setting): how often each shop gets its turn. */
  periodMs: number;
  data: () => object;
  /** A factory: BullMQ may change the options object it is given, so each upsert gets its own. */
  opts: () => JobsOptions;
}

/**
 * Why: the scheduled jobs are the flow table's schedules (`QUEUE_FLOW`, queue-flow.ts), created at
 * boot with one call each and re-creatable at any time (a queue backend that lost its data). A
 * schedule whose interval is 0 (`CONNECTOR_DRIFT_INTERVAL_MS=0`) is left out, and a scheduler an
 * earlier boot made for it is removed. A spread schedule (`spread`) ticks several times a
 * period, each tick taking the shops whose turn came (`schedule-spread.ts`). Each job's work
 * lives in its feature's `*.job.ts`.
 */
export class JobSchedulers implements OnApplicationBootstrap {
  readonly all: readonly RepeatableJob[];
  /** True once the boot-time creation finished: from then on, a missing scheduler was lost. */
  booted = false;
  /** Schedules turned off (interval 0): their schedulers go at each `ensure`. */
  private readonly off: readonly Queue[];

  /** `queue`: each scheduled queue of the table (`jobSchedulersProvider` injects them). */
  constructor(config: ScheduleConfig, queue: (name: QueueName) => Queue) {
    const scheduled = QUEUE_FLOW.flatMap((row) =>
      row.schedule === null ? [] : [{ row, schedule: row.schedule, everyMs: row.schedule.everyMs(config) }],
    );
    this.all = scheduled
      .filter((s) => s.everyMs > 0)
      .map(({ row, schedule, everyMs }) => ({
        // Each queue's job name is its queue's name (queue-names.ts).
        name: row.queue as JobName,
        queue: queue(row.queue),
        everyMs: schedule.spread ? tickMs(everyMs) : everyMs,
        periodMs: everyMs,
        data: schedule.data,
        opts: schedule.opts,
      }));
    this.off = scheduled.filter((s) => s.everyMs === 0).map((s) => queue(s.row.queue));
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
    for (const queue of this.off) await queue.removeJobScheduler(queue.name);
  }
}

const SCHEDULED: readonly QueueName[] = QUEUE_FLOW.filter((row) => row.schedule !== null).map(
  (row) => row.queue,
);

/** `JobSchedulers` with the settings and the queues the flow table schedules, injected by Nest. */
export const jobSchedulersProvider: FactoryProvider<JobSchedulers> = {
  provide: JobSchedulers,
  inject: [
    InboxSettings,
    EnrichmentSettings,
    ReconcileSettings,
    RetentionSettings,
    ShopifySettings,
    SyncSettings,
    AlertSettings,
    ...SCHEDULED.map((name) => getQueueToken(name)),
  ],
  useFactory: (
    inbox: InboxSettings,
    enrichment: EnrichmentSettings,
    reconcile: ReconcileSettings,
    retention: RetentionSettings,
    shopify: ShopifySettings,
    sync: SyncSettings,
    alerts: AlertSettings,
    ...queues: Queue[]
  ) => {
    const config: ScheduleConfig = { inbox, enrichment, reconcile, retention, shopify, sync, alerts };
    return new JobSchedulers(config, (name) => {
      const queue = queues[SCHEDULED.indexOf(name)];
      if (queue === undefined) throw new Error(`queue "${name}" has no schedule in the flow table`);
      return queue;
    });
  },
};
