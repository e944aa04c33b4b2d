import { InjectQueue } from '@nestjs/bullmq';
import { Injectable } from '@nestjs/common';
import type { Queue } from 'bullmq';
import { DataSource } from 'typeorm';
import { QueueName } from '../queues/queue-names.js';

const CHECK_TIMEOUT_MS = 2_000;

export interface ReadinessReport {
  ready: boolean;
  checks: { database: 'up' | 'down'; queue: 'up' | 'down' };
}

/**
 * Whether the connector can take webhooks: PostgreSQL (the inbox) and the queue backend, and
 * nothing else. The catalog and Shopify are reported elsewhere: their outage never makes a
 * replica unready, since intake does not need them.
 */
@Injectable()
export class Readiness {
  constructor(
    private readonly dataSource: DataSource,
    @InjectQueue(QueueName.SYNC_PRODUCT) private readonly queue: Queue,
  ) {}

  async check(): Promise<ReadinessReport> {
    const [database, queue] = await Promise.all([
      probe(() => this.dataSource.query('SELECT 1')),
      probe(() => this.queue.getJobCountByTypes('waiting')),
    ]);
    return { ready: database === 'up' && queue === 'up', checks: { database, queue } };
  }
}

async function probe(run: () => Promise<unknown>): Promise<'up' | 'down'> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error('timed out')), CHECK_TIMEOUT_MS);
  });
  try {
    await Promise.race([run(), timeout]);
    return 'up';
  } catch {
    return 'down';
  } finally {
    clearTimeout(timer);
  }
}
