import { WorkerHost } from '@nestjs/bullmq';
import { Injectable, Logger, type OnApplicationBootstrap } from '@nestjs/common';
import { DiscoveryService } from '@nestjs/core';
import type { Job } from 'bullmq';
import { FailuresService } from './failures.service.js';
import { type JobErrorInfo, jobErrorInfo } from './job-error.js';
import { wasRecorded } from './recorded-failure.js';
import { ReplayRegistry } from './replay-registry.service.js';

/** BullMQ's own reasons for failing a job without running it (stalls, too many starts). */
const QUEUE_FAILURES: ReadonlyArray<[RegExp, string]> = [
  [/stalled more than allowable limit/, 'job_stalled'],
  [/started more than allowable limit/, 'job_started_too_often'],
];

/**
 * Why: a job can end `failed` without its job guard ever deciding so. The process was killed
 * twice while running it, so BullMQ fails it itself ("job stalled more than allowable limit"),
 * or it threw outside the guard. This listens to every worker's `failed` event and records each
 * job that failed for good and is not in the failures table yet, so it can be replayed there.
 * Kinds without a replay handler (the schedulers: sweep, retention, reconciliation) run again on
 * their interval and are only logged.
 */
@Injectable()
export class FailedJobRecorder implements OnApplicationBootstrap {
  private readonly logger = new Logger('Failures');

  constructor(
    private readonly discovery: DiscoveryService,
    private readonly failures: FailuresService,
    private readonly registry: ReplayRegistry,
  ) {}

  onApplicationBootstrap(): void {
    for (const wrapper of this.discovery.getProviders()) {
      const host: unknown = wrapper.instance;
      if (!(host instanceof WorkerHost)) continue;
      host.worker.on('failed', (job: Job | undefined, error: Error) => {
        if (job !== undefined) void this.failed(job, error);
      });
    }
  }

  /** Records `job` if it failed for good and nobody recorded it; never throws. */
  async failed(job: Job, error: Error): Promise<void> {
    if (wasRecorded(error) || !failedForGood(job, error)) return;
    if (!this.registry.kinds.includes(job.name)) {
      this.logger.error(`${job.name} job ${job.id ?? ''} failed: ${error.message}`);
      return;
    }
    const data = (job.data ?? {}) as Record<string, unknown>;
    try {
      await this.failures.record({
        shop: typeof data.shop === 'string' ? data.shop : '*',
        jobKind: job.name,
        subjectKey: this.registry.subjectOf(job.name, data) ?? subjectKeyOf(job, data),
        payload: data,
        error: errorInfo(error),
        attempts: Math.max(1, job.attemptsMade),
        ...(job.id === undefined ? {} : { jobId: String(job.id) }),
      });
    } catch (recordError) {
      this.logger.error(
        `Could not record the failure of ${job.name} job ${job.id ?? ''}: ${String(recordError)}`,
      );
    }
  }
}

/** After BullMQ's `moveToFailed`, only a job that will not run again has `finishedOn`. */
function failedForGood(job: Job, error: Error): boolean {
  return job.finishedOn !== undefined || error.name === 'UnrecoverableError';
}

/** Without the kind's own `subjectOf`: the product, the resync run, else the job. */
function subjectKeyOf(job: Job, data: Record<string, unknown>): string {
  if (typeof data.productId === 'string') return data.productId;
  if (typeof data.runId === 'string') return `run:${data.runId}`;
  return String(job.id ?? 'unknown');
}

function errorInfo(error: Error): JobErrorInfo {
  for (const [pattern, code] of QUEUE_FAILURES) {
    if (pattern.test(error.message)) return { code, message: error.message, retryable: true };
  }
  return jobErrorInfo(error);
}
