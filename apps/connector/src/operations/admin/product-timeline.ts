import { InjectQueue } from '@nestjs/bullmq';
import { Inject, Injectable } from '@nestjs/common';
import type { Job, Queue } from 'bullmq';
import { DataSource } from 'typeorm';
import { CONNECTOR_CONFIG } from '../../connector.tokens.js';
import type { ConnectorConfig } from '../../platform/config/connector.config.js';
import { OperationsSeams, type TimelineEvent } from '../../platform/health/operations-seams.js';
import type { SyncProductPayload } from '../../platform/queues/job-payloads.js';
import { QueueName } from '../../platform/queues/queue-names.js';

const RECENT_JOBS = 500;

/**
 * A product's history for operators, latest first: its webhooks (the inbox), its sync jobs
 * (waiting or running now, and the recent finished ones the queue still keeps), its failures,
 * and whatever later stages add through `OperationsSeams` (the sync records of the catalog
 * calls made, the write-backs). Read-only; nothing here is an entity handed out.
 */
@Injectable()
export class ProductTimeline {
  constructor(
    private readonly dataSource: DataSource,
    private readonly seams: OperationsSeams,
    @Inject(CONNECTOR_CONFIG) private readonly config: ConnectorConfig,
    @InjectQueue(QueueName.SYNC_PRODUCT) private readonly queue: Queue<SyncProductPayload>,
  ) {}

  async events(shop: string, productId: string, limit = 100): Promise<TimelineEvent[]> {
    const parts = await Promise.all([
      this.webhooks(shop, productId, limit),
      this.failures(shop, productId, limit),
      this.jobs(shop, productId),
      ...this.seams.timelineSources().map((source) => source.events(shop, productId, limit)),
    ]);
    return parts
      .flat()
      .sort((a, b) => b.at.localeCompare(a.at))
      .slice(0, limit);
  }

  private async webhooks(shop: string, productId: string, limit: number): Promise<TimelineEvent[]> {
    const rows: Array<{
      webhook_id: string;
      topic: string;
      state: string;
      outcome: string | null;
      received_at: Date;
    }> = await this.dataSource.query(
      `SELECT webhook_id, topic, state, outcome, received_at FROM ${this.table('inbox')}
          WHERE shop = $1 AND product_id = $2::bigint ORDER BY received_at DESC LIMIT $3`,
      [shop, productId, limit],
    );
    return rows.map((row) => ({
      at: row.received_at.toISOString(),
      kind: 'webhook',
      summary: `${row.topic} ${row.state}${row.outcome ? ` (${row.outcome})` : ''}`,
      details: { webhookId: row.webhook_id },
    }));
  }

  private async failures(shop: string, productId: string, limit: number): Promise<TimelineEvent[]> {
    const rows: Array<{
      id: string;
      job_kind: string;
      error_code: string;
      state: string;
      last_failed_at: Date;
    }> = await this.dataSource.query(
      `SELECT id::text, job_kind, error_code, state, last_failed_at FROM ${this.table('failures')}
          WHERE shop = $1 AND subject_key = $2 ORDER BY last_failed_at DESC LIMIT $3`,
      [shop, productId, limit],
    );
    return rows.map((row) => ({
      at: row.last_failed_at.toISOString(),
      kind: 'failure',
      summary: `${row.job_kind} failed: ${row.error_code} (${row.state})`,
      details: { failureId: row.id, state: row.state },
    }));
  }

  /** Jobs of this product the queue still holds (finished ones are kept a day, see job options). */
  private async jobs(shop: string, productId: string): Promise<TimelineEvent[]> {
    const jobs = await this.queue.getJobs(
      ['waiting', 'delayed', 'active', 'completed', 'failed'],
      0,
      RECENT_JOBS,
    );
    return jobs
      .filter(
        (job): job is Job<SyncProductPayload> => job?.data?.shop === shop && job.data.productId === productId,
      )
      .map((job) => {
        const state =
          job.finishedOn === undefined
            ? job.processedOn === undefined
              ? 'waiting'
              : 'active'
            : job.failedReason
              ? 'failed'
              : 'done';
        const result = typeof job.returnvalue === 'string' ? ` -> ${job.returnvalue}` : '';
        return {
          at: new Date(job.finishedOn ?? job.processedOn ?? job.timestamp).toISOString(),
          kind: 'job',
          summary: `${job.name} (${job.data.reason}) ${state}${result}`,
          details: { jobId: String(job.id), attempts: job.attemptsMade },
        };
      });
  }

  private table(name: string): string {
    return `"${this.config.database.schema}".${name}`;
  }
}
