import { Injectable, Logger } from '@nestjs/common';
import { DelayedError, type Job, UnrecoverableError } from 'bullmq';
import { ClientErrorCode } from '#lib/catalog-client';
import { CatalogSettings } from '../config/settings.js';
import { logContext } from '../http/log-context.js';
import { FailuresService } from './failures.service.js';
import { jobErrorInfo, jobWaitMs } from './job-error.js';
import { markRecorded } from './recorded-failure.js';

/** What a job is about, for the failures table. */
export interface JobSubject {
  shop: string;
  key: string;
  /**
   * What a failure is about when the error says better than the job (a poll of every shop
   * failing for one shop and cause): that subject is recorded instead. Undefined: `shop`, `key`.
   */
  failedOn?: (error: unknown) => { shop: string; key: string } | undefined;
}

/**
 * Runs a job's work and decides what its error means, the same way for every job kind:
 * - retryable, attempts left: rethrown, so BullMQ retries with back-off;
 * - permanent, or the last attempt: recorded in the failures table, then the job fails for good;
 * - the catalog breaker open for the shop's key, or the shop without a token (`needs_reauth`,
 *   uninstalled: the error's `waitMs`): the job waits (delayed), no attempt spent.
 * Every log line of the run carries the job's correlation id (`job:<kind>:<id>`), shop and subject.
 */
@Injectable()
export class JobGuard {
  private readonly logger = new Logger('JobGuard');

  constructor(
    private readonly failures: FailuresService,
    private readonly settings: CatalogSettings,
  ) {}

  async run<T>(job: Job, token: string | undefined, subject: JobSubject, work: () => Promise<T>): Promise<T> {
    const context = {
      correlationId: `job:${job.name}:${job.id ?? 'unknown'}`,
      jobId: String(job.id ?? ''),
      jobKind: job.name,
      shop: subject.shop,
      subject: subject.key,
    };
    return logContext.run(context, () => {
      this.logger.debug(`${job.name} job ${job.id ?? ''} starts (attempt ${job.attemptsMade + 1})`);
      return this.guarded(job, token, subject, work);
    });
  }

  private async guarded<T>(
    job: Job,
    token: string | undefined,
    subject: JobSubject,
    work: () => Promise<T>,
  ): Promise<T> {
    try {
      return await work();
    } catch (error) {
      if (error instanceof DelayedError) throw error;
      if ((error as { code?: unknown }).code === ClientErrorCode.CIRCUIT_OPEN) {
        return this.delay(job, token, this.settings.pauseRecheckMs);
      }
      const waitMs = jobWaitMs(error);
      if (waitMs !== null) return this.delay(job, token, waitMs);
      const info = jobErrorInfo(error);
      const attempts = job.attemptsMade + 1;
      if (info.retryable && attempts < (job.opts.attempts ?? 1)) throw error;
      const failed = subject.failedOn?.(error) ?? subject;
      try {
        await this.failures.record({
          shop: failed.shop,
          jobKind: job.name,
          subjectKey: failed.key,
          payload: job.data as Record<string, unknown>,
          error: info,
          attempts,
        });
      } catch (recordError) {
        // Not swallowed either way: the job stays in the queue's failed set.
        this.logger.error(`Could not record the failure of job ${job.id}: ${String(recordError)}`);
        throw error;
      }
      throw markRecorded(new UnrecoverableError(`${info.code}: ${info.message}`));
    }
  }

  /**
   * Puts the job back as delayed for `ms` and ends this run without spending an attempt (and
   * without holding a worker slot or a connection meanwhile). BullMQ schedules on wall-clock
   * time, hence `Date.now()` rather than the injected clock.
   */
  async delay(job: Job, token: string | undefined, ms: number): Promise<never> {
    await job.moveToDelayed(Date.now() + ms, token);
    throw new DelayedError();
  }
}
