import { getQueueToken } from '@nestjs/bullmq';
import { Injectable, Logger } from '@nestjs/common';
import { ModuleRef } from '@nestjs/core';
import type { Queue } from 'bullmq';
import { Clock } from '#lib/clock';
import { RetentionSettings } from '../config/settings.js';
import { FailuresService } from '../failures/failures.service.js';
import { ALL_QUEUES } from '../queues/queue-names.js';
import { pruneInBatches, RetentionRegistry } from '../reporting/retention-registry.service.js';

/** What one retention run removed, per table (and `jobs:<queue>` for succeeded jobs). */
export type RetentionResult = Record<string, number>;

/**
 * Keeps a year of operation from growing tables without bound. Prunes resolved failures (dismissed,
 * replayed or resolved by a later success), removes succeeded jobs from every queue, and runs what
 * each feature registered for its own tables (`RetentionRegistry`: the inbox, the sync records,
 * ended resync runs, the write-back history; never tombstones or the map). Scheduled in `JobSchedulers` (once per interval across replicas);
 * the scheduler only enqueues, `RetentionJob` prunes.
 */
@Injectable()
export class Retention {
  private readonly logger = new Logger('Retention');

  constructor(
    private readonly registry: RetentionRegistry,
    private readonly failures: FailuresService,
    private readonly clock: Clock,
    private readonly moduleRef: ModuleRef,
    private readonly retentionSettings: RetentionSettings,
  ) {}

  /** One pass over every registered table and every queue; resolves to what went. */
  async run(): Promise<RetentionResult> {
    const now = this.clock.now();
    const result: RetentionResult = {
      failures: await pruneInBatches((limit) =>
        this.failures.deleteResolvedBatch(new Date(now - this.retentionSettings.failuresMs), limit),
      ),
    };
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
}
