import { getQueueToken, InjectQueue } from '@nestjs/bullmq';
import { Injectable, Logger, type OnApplicationBootstrap, type OnModuleInit } from '@nestjs/common';
import { ModuleRef } from '@nestjs/core';
import type { Queue } from 'bullmq';
import { DataSource } from 'typeorm';
import { Clock } from '#lib/clock';
import { DatabaseSettings, RetentionSettings } from '../config/settings.js';
import { retentionJobOptions } from '../queues/job-options.js';
import type { RetentionPayload } from '../queues/job-payloads.js';
import { ALL_QUEUES, JobName, QueueName } from '../queues/queue-names.js';
import { pruneInBatches, RetentionRegistry } from './retention-registry.js';

/** What one retention run removed, per table (and `jobs:<queue>` for succeeded jobs). */
export type RetentionResult = Record<string, number>;

/**
 * Keeps a year of operation from growing tables without bound. Registers the connector's own
 * prunable rows (finished inbox deliveries, dismissed or replayed failures; never tombstones or
 * the map), removes succeeded jobs from every queue, and runs whatever later stages registered
 * (`RetentionRegistry`). Scheduled as a BullMQ job scheduler, so it runs once per interval
 * across replicas; the scheduler only enqueues, the job prunes.
 */
@Injectable()
export class Retention implements OnModuleInit, OnApplicationBootstrap {
  private readonly logger = new Logger('Retention');

  constructor(
    private readonly registry: RetentionRegistry,
    private readonly dataSource: DataSource,
    private readonly clock: Clock,
    private readonly moduleRef: ModuleRef,
    private readonly databaseSettings: DatabaseSettings,
    private readonly retentionSettings: RetentionSettings,
    @InjectQueue(QueueName.RETENTION) private readonly queue: Queue<RetentionPayload>,
  ) {}

  onModuleInit(): void {
    const s = `"${this.databaseSettings.schema}"`;
    const { inboxMs, failuresMs } = this.retentionSettings;
    this.registry.register({
      name: 'inbox',
      ageMs: inboxMs,
      prune: (before) =>
        this.deleteBatches(
          `DELETE FROM ${s}.inbox WHERE id IN (SELECT id FROM ${s}.inbox
             WHERE state <> 'received' AND received_at < $1 ORDER BY received_at LIMIT $2)`,
          before,
        ),
    });
    this.registry.register({
      name: 'failures',
      ageMs: failuresMs,
      prune: (before) =>
        this.deleteBatches(
          `DELETE FROM ${s}.failures WHERE id IN (SELECT id FROM ${s}.failures
             WHERE state <> 'open' AND resolved_at < $1 ORDER BY resolved_at LIMIT $2)`,
          before,
        ),
    });
  }

  async onApplicationBootstrap(): Promise<void> {
    await this.queue.upsertJobScheduler(
      JobName.RETENTION,
      { every: this.retentionSettings.intervalMs },
      { name: JobName.RETENTION, data: {}, opts: retentionJobOptions() },
    );
  }

  /** One pass over every registered table and every queue; resolves to what went. */
  async run(): Promise<RetentionResult> {
    const now = this.clock.now();
    const result: RetentionResult = {};
    for (const table of this.registry.all()) {
      result[table.name] = await table.prune(new Date(now - table.ageMs));
    }
    for (const name of ALL_QUEUES) {
      const queue = this.moduleRef.get<Queue>(getQueueToken(name), { strict: false });
      result[`jobs:${name}`] = await pruneInBatches(
        async (limit) => (await queue.clean(this.retentionSettings.jobsMs, limit, 'completed')).length,
      );
    }
    const total = Object.values(result).reduce((sum, n) => sum + n, 0);
    if (total > 0) this.logger.log({ msg: `Retention pruned ${total} row(s)`, pruned: result });
    return result;
  }

  private deleteBatches(sql: string, before: Date): Promise<number> {
    return pruneInBatches(async (limit) => {
      const [, affected] = (await this.dataSource.query(sql, [before, limit])) as [unknown, number];
      return affected;
    });
  }
}
