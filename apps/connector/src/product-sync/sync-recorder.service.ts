import { Injectable } from '@nestjs/common';
import { DelayedError, type Job } from 'bullmq';
import { Clock } from '#lib/clock';
import { jobErrorInfo, jobWaitMs } from '../platform/failures/job-error.js';
import type { SyncProductPayload } from '../platform/queues/job-payloads.js';
import type { SyncResult, SyncRun } from './apply/sync-run.js';
import type { SyncSubject } from './apply/sync-subject.js';
import { ResyncSnapshots } from './resync-snapshots.repository.js';
import { SyncEvents } from './sync-events.js';
import { SyncRecords } from './sync-records.repository.js';

/** A run being recorded: its context for the steps, and what its record needs. */
export interface RecordedRun {
  subject: SyncSubject;
  job: Job<SyncProductPayload>;
  run: SyncRun;
  startedAt: Date;
}

/**
 * Why: the sync's record stage. Every run, failed ones too, leaves a sync record with the calls it
 * made. A run that ended tells the after-sync listeners first (`SyncEvents`: a listener's failure
 * fails the run) and supersedes the resync snapshots taken before its read.
 */
@Injectable()
export class SyncRecorder {
  constructor(
    private readonly records: SyncRecords,
    private readonly snapshots: ResyncSnapshots,
    private readonly events: SyncEvents,
    private readonly clock: Clock,
  ) {}

  /** A new run of the job, started now. */
  begin(subject: SyncSubject, job: Job<SyncProductPayload>): RecordedRun {
    const run: SyncRun = { jobId: job.id ?? null, reason: job.data.reason, calls: [], events: [] };
    return { subject, job, run, startedAt: new Date(this.clock.now()) };
  }

  /** The run ended: the after-sync listeners, its record, the snapshots it supersedes. */
  async ended(recorded: RecordedRun, result: SyncResult): Promise<void> {
    const { subject, job } = recorded;
    await this.events.emitSynced({
      ...subject,
      outcome: result.outcome,
      product: result.product,
      jobId: job.id ?? null,
      reason: job.data.reason,
    });
    await this.add(recorded, result.outcome, result.applied?.detail ?? null, null);
    // The run's read supersedes the resync snapshots taken before it. (The product's open sync
    // failures are resolved by the job guard once the run succeeded.)
    await this.snapshots.remove(subject, result.readAt ?? recorded.startedAt);
  }

  /** The run failed (a delayed job, or a shop without a token that only waits, is no failed run). */
  async failed(recorded: RecordedRun, error: unknown): Promise<void> {
    if (error instanceof DelayedError || jobWaitMs(error) !== null) return;
    const { code, message } = jobErrorInfo(error);
    await this.add(recorded, 'failed', null, { code, message });
    // A failed run's snapshot goes too: its retry (or a later resync) reads the product anew.
    await this.snapshots.remove(recorded.subject, new Date(this.clock.now()));
  }

  private async add(
    { subject, job, run, startedAt }: RecordedRun,
    outcome: string,
    detail: string | null,
    error: { code: string; message: string } | null,
  ): Promise<void> {
    await this.records.add({
      ...subject,
      jobId: job.id ?? null,
      reason: job.data.reason,
      outcome,
      detail,
      calls: run.calls,
      events: run.events,
      error,
      title: run.title ?? null,
      startedAt,
      finishedAt: new Date(this.clock.now()),
    });
  }
}
