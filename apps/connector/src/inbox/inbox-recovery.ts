import { InjectQueue } from '@nestjs/bullmq';
import { Injectable, type OnModuleInit } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import type { Queue } from 'bullmq';
import type { Repository } from 'typeorm';
import { JobName, QueueName } from '../queues/queue-names.js';
import { QueueRecoveryRegistry } from '../queues/queue-recovery-registry.js';
import { InboxEntry } from './inbox-entry.entity.js';
import { InboxSweeper } from './inbox-sweeper.js';
import { SyncEnqueuer } from './sync-enqueuer.js';

const BATCH = 500;

/**
 * The inbox's part of repairing a queue backend that lost its data: the sweeper's scheduler,
 * and a sync for every product with deliveries still `received` (their jobs may be gone; a
 * delete's grace is counted from the delivery, so it is kept). Products with an open sync
 * failure are left to the failures inbox, as the sweeper does.
 */
@Injectable()
export class InboxRecovery implements OnModuleInit {
  constructor(
    private readonly registry: QueueRecoveryRegistry,
    private readonly sweeper: InboxSweeper,
    private readonly enqueuer: SyncEnqueuer,
    @InjectRepository(InboxEntry) private readonly entries: Repository<InboxEntry>,
    @InjectQueue(QueueName.INBOX_SWEEP) private readonly queue: Queue,
  ) {}

  onModuleInit(): void {
    this.registry.scheduler({
      queue: this.queue,
      id: JobName.INBOX_SWEEP,
      ensure: () => this.sweeper.onApplicationBootstrap(),
    });
    this.registry.work({ name: 'inbox', requeue: () => this.requeue() });
  }

  /** Enqueues every product with unprocessed deliveries, in keyset pages; resolves to how many. */
  async requeue(): Promise<number> {
    const inbox = this.entries.metadata.tablePath;
    const failures = inbox.replace(/inbox$/, 'failures');
    let after: { shop: string; productId: string } = { shop: '', productId: '-1' };
    let total = 0;
    for (;;) {
      const rows: Array<{ shop: string; product_id: string }> = await this.entries.query(
        `SELECT DISTINCT i.shop, i.product_id::text AS product_id
           FROM ${inbox} i
          WHERE i.state = 'received' AND i.product_id IS NOT NULL
            AND (i.shop, i.product_id) > ($1, $2::bigint)
            AND NOT EXISTS (
              SELECT 1 FROM ${failures} f
               WHERE f.state = 'open' AND f.shop = i.shop AND f.job_kind = 'sync-product'
                 AND f.subject_key = i.product_id::text)
          ORDER BY i.shop, product_id LIMIT $3`,
        [after.shop, after.productId, BATCH],
      );
      const products = rows.map((row) => ({ shop: row.shop, productId: row.product_id }));
      await this.enqueuer.enqueueMany(products.map((p) => ({ ...p, reason: 'sweep' as const })));
      total += products.length;
      const last = products.at(-1);
      if (last === undefined || products.length < BATCH) return total;
      after = last;
    }
  }
}
