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

/** A readiness check with why each check that failed did (the error's message; null when up). */
export interface ReadinessMeasurement extends ReadinessReport {
  errors: { database: string | null; queue: string | null };
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
    const { ready, checks } = await this.measure();
    return { ready, checks };
  }

  /** One measurement of both, with the errors (`/health` and the overview name the cause). */
  async measure(): Promise<ReadinessMeasurement> {
    const [database, queue] = await Promise.all([
      probe(() => this.dataSource.query('SELECT 1')),
      probe(() => this.queue.getJobCountByTypes('waiting')),
    ]);
    return {
      ready: database === null && queue === null,
      checks: { database: database === null ? 'up' : 'down', queue: queue === null ? 'up' : 'down' },
      errors: { database, queue },
    };
  }
}

/** Null when `run` answered in time, else why not. */
async function probe(run: () => Promise<unknown>): Promise<string | null> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${CHECK_TIMEOUT_MS} ms`)), CHECK_TIMEOUT_MS);
  });
  try {
    await Promise.race([run(), timeout]);
    return null;
  } catch (error) {
    return error instanceof Error ? error.message || error.name : String(error);
  } finally {
    clearTimeout(timer);
  }
}
