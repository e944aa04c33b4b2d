import { InjectQueue } from '@nestjs/bullmq';
import { Injectable } from '@nestjs/common';
import type { Job, Queue } from 'bullmq';
import { DriftReportsRepository } from '../../drift/store/drift-reports.repository.js';
import { InboxRepository } from '../../intake/inbox.repository.js';
import { FailuresService } from '../../platform/failures/failures.service.js';
import type { SyncProductPayload } from '../../platform/queues/job-payloads.js';
import { QueueName } from '../../platform/queues/queue-names.js';
import { SyncRecords } from '../../product-sync/sync-records.repository.js';
import { WriteBackStatus } from '../../write-back/write-back-status.service.js';

const RECENT_JOBS = 500;

/** One line of a product's timeline in the operators' view. */
export interface TimelineEvent {
  /** ISO 8601. */
  at: string;
  /** `webhook`, `job`, `failure`, `sync`, `write-back`, ... */
  kind: string;
  summary: string;
  details?: Record<string, unknown>;
}

/**
 * A product's history for operators, latest first: its webhooks (the inbox), its sync jobs
 * (waiting or running now, and the recent finished ones the queue still keeps), its failures,
 * its sync runs (the catalog calls made), its write-backs and its drift repairs, each read from the feature that
 * owns it. Read-only; nothing here is an entity handed out.
 */
@Injectable()
export class ProductTimeline {
  constructor(
    private readonly inbox: InboxRepository,
    private readonly failuresOf: FailuresService,
    private readonly syncRecords: SyncRecords,
    private readonly writeBack: WriteBackStatus,
    private readonly drift: DriftReportsRepository,
    @InjectQueue(QueueName.SYNC_PRODUCT) private readonly queue: Queue<SyncProductPayload>,
  ) {}

  async events(shop: string, productId: string, limit = 100): Promise<TimelineEvent[]> {
    const parts = await Promise.all([
      this.webhooks(shop, productId, limit),
      this.failures(shop, productId, limit),
      this.jobs(shop, productId),
      this.syncs(shop, productId, limit),
      this.writeBacks(shop, productId, limit),
      this.driftRepairs(shop, productId, limit),
    ]);
    return parts
      .flat()
      .sort((a, b) => b.at.localeCompare(a.at))
      .slice(0, limit);
  }

  private async webhooks(shop: string, productId: string, limit: number): Promise<TimelineEvent[]> {
    const rows = await this.inbox.ofProduct(shop, productId, limit);
    return rows.map((row) => ({
      at: row.receivedAt.toISOString(),
      kind: 'webhook',
      summary: `${row.topic} ${row.state}${row.outcome ? ` (${row.outcome})` : ''}`,
      details: { webhookId: row.webhookId },
    }));
  }

  private async syncs(shop: string, productId: string, limit: number): Promise<TimelineEvent[]> {
    return (await this.syncRecords.ofProduct(shop, productId, limit)).map((run) => ({
      at: run.finishedAt.toISOString(),
      kind: 'sync',
      summary: `sync (${run.reason}) ${run.outcome}${run.detail ? `: ${run.detail}` : ''}; ${run.calls.length} catalog call(s)`,
      details: {
        calls: run.calls.map((call) => `${call.method} ${call.path} ${call.status ?? 'no answer'}`),
        ...(run.error ? { error: run.error.code } : {}),
      },
    }));
  }

  private async writeBacks(shop: string, productId: string, limit: number): Promise<TimelineEvent[]> {
    return (await this.writeBack.history(shop, productId, limit)).map((entry) => ({
      at: entry.at,
      kind: 'write-back',
      summary: `${entry.details.purpose} ${entry.details.attribute} → ${entry.field}: ${entry.outcome}`,
      details: entry.details,
    }));
  }

  /** The drift findings about this product an operator chose to repair, and what came of it. */
  private async driftRepairs(shop: string, productId: string, limit: number): Promise<TimelineEvent[]> {
    return (await this.drift.repairsOfProduct(shop, productId, limit)).map((row) => ({
      at: (row.repairedAt ?? new Date(0)).toISOString(),
      kind: 'drift-repair',
      summary:
        `drift ${row.kind}${row.finding.field ? ` (${row.finding.field})` : ''}: ${row.finding.repair} ${row.repairOutcome ?? ''}`.trimEnd(),
      details: { reportId: row.reportId, findingId: row.id, key: row.key },
    }));
  }

  private async failures(shop: string, productId: string, limit: number): Promise<TimelineEvent[]> {
    const rows = await this.failuresOf.list({ shop, subjectKey: productId }, limit);
    return rows.map((row) => ({
      at: row.lastFailedAt.toISOString(),
      kind: 'failure',
      summary: `${row.jobKind} failed: ${row.errorCode} (${row.state})`,
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
}
