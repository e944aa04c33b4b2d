import { InjectQueue } from '@nestjs/bullmq';
import { Injectable, type OnModuleInit } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import type { Queue } from 'bullmq';
import type { Repository } from 'typeorm';
import { SyncEnqueuer } from '../inbox/sync-enqueuer.js';
import { JobName, QueueName } from '../queues/queue-names.js';
import { QueueRecoveryRegistry } from '../queues/queue-recovery-registry.js';
import { Reconciler } from './reconciler.js';
import { ResyncService } from './resync.service.js';
import { ResyncRun } from './resync-run.entity.js';

const BATCH = 500;

/**
 * The resync stage's part of repairing a queue backend that lost its data: the reconciliation's
 * scheduler, every whole-shop run still walking resumed from its persisted cursor, and a sync
 * for every product a running run listed and has not heard back from.
 */
@Injectable()
export class ResyncRecovery implements OnModuleInit {
  constructor(
    private readonly registry: QueueRecoveryRegistry,
    private readonly reconciler: Reconciler,
    private readonly resync: ResyncService,
    private readonly enqueuer: SyncEnqueuer,
    @InjectRepository(ResyncRun) private readonly runs: Repository<ResyncRun>,
    @InjectQueue(QueueName.RECONCILE) private readonly queue: Queue,
  ) {}

  onModuleInit(): void {
    this.registry.scheduler({
      queue: this.queue,
      id: JobName.RECONCILE,
      ensure: () => this.reconciler.onApplicationBootstrap(),
    });
    this.registry.work({ name: 'resync', requeue: () => this.requeue() });
  }

  /** Resumes the walks, then enqueues the listed products still queued; resolves to how many jobs. */
  async requeue(): Promise<number> {
    const runs = this.runs.metadata.tablePath;
    const products = runs.replace(/resync_runs$/, 'resync_run_products');
    const walking = await this.runs.count({ where: { state: 'running', scope: 'shop', walkDone: false } });
    await this.resync.onApplicationBootstrap();
    let after: { shop: string; productId: string } = { shop: '', productId: '-1' };
    let total = walking;
    for (;;) {
      const rows: Array<{ shop: string; product_id: string }> = await this.runs.query(
        `SELECT DISTINCT p.shop, p.product_id::text AS product_id
           FROM ${products} p JOIN ${runs} r ON r.id = p.run_id
          WHERE p.state = 'queued' AND r.state = 'running' AND (p.shop, p.product_id) > ($1, $2::bigint)
          ORDER BY p.shop, product_id LIMIT $3`,
        [after.shop, after.productId, BATCH],
      );
      const page = rows.map((row) => ({ shop: row.shop, productId: row.product_id }));
      await this.enqueuer.enqueueMany(page.map((p) => ({ ...p, reason: 'resync' as const })));
      total += page.length;
      const last = page.at(-1);
      if (last === undefined || page.length < BATCH) return total;
      after = last;
    }
  }
}
