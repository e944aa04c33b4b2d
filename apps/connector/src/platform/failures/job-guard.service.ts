import { Injectable, Logger } from '@nestjs/common';
import { DelayedError, type Job, UnrecoverableError } from 'bullmq';
import { ClientErrorCode } from '#lib/catalog-client';
import { CatalogSettings } from '../config/settings.js';
import { logContext } from '../http/log-context.js';
import { FailuresService } from './failures.service.js';
import { jobErrorInfo, jobWaitMs } from './job-error.js';
import { markRecorded } from './recorded-failure.js';

/** A shop and what in it a job is about (a product id, `run:<id>`, `poll`). */
export interface SubjectRef {
  shop: string;
  key: string;
}

/** What a job is about, for the failures table. */
export interface JobSubject<T = unknown> extends SubjectRef {
  /**
   * What a failure is about when the error says better than the job (a poll of every shop
   * failing for one shop and cause): that subject is recorded instead. Undefined: `shop`, `key`.
   */
  failedOn?: (error: unknown) => SubjectRef | undefined;
  /**
   * The subjects a run did its work for, when not `shop`/`key` (a poll of every shop: each shop
   * it polled, read from its result, or from the error another shop's poll ended it with).
   */
  doneFor?: (outcome: { result: T } | { error: unknown }) => readonly SubjectRef[];
}

/**
 * Runs a job's work and decides what its error means, the same way for every job kind:
 * - retryable, attempts left: rethrown, so BullMQ retries with back-off;
 * - permanent, or the last attempt: recorded in the failures table, then the job fails for good;
 * - the catalog breaker open for the shop's key, or the shop without a token (`needs_reauth`,
 *   uninstalled: the error's `waitMs`): the job waits (delayed), no attempt spent.
 * A run that did its work resolves the open failures of its subject (of this job kind, whatever
 * their cause): the next success of a sync, poll, media run or push closes what failed before,
 * here for every kind rather than in each job.
 * Every log line of the run carries the job's correlation id (`job:<kind>:<id>`), shop and subject.
 */
@Injectable()
export class JobGuard {
  private readonly logger = new Logger('JobGuard');

  constructor(
    private readonly failures: FailuresService,
    private readonly settings: CatalogSettings,
  ) {}

  async run<T>(
    job: Job,
    token: string | undefined,
    subject: JobSubject<T>,
    work: () => Promise<T>,
  ): Promise<T> {
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
    subject: JobSubject<T>,
    work: () => Promise<T>,
  ): Promise<T> {
    let result: T;
    try {
      result = await work();
    } catch (error) {
      return this.failed(job, token, subject, error);
    }
    await this.resolveDone(job, subject.doneFor?.({ result }) ?? [subject]);
    return result;
  }

  private async failed<T>(
    job: Job,
    token: string | undefined,
    subject: JobSubject<T>,
    error: unknown,
  ): Promise<never> {
    if (error instanceof DelayedError) throw error;
    const code = (error as { code?: unknown }).code;
    // The breaker open, or this process stopping (its catalog clients closed under a running job,
    // before the workers end): the job runs again later, here or at another replica, no failure.
    if (code === ClientErrorCode.CIRCUIT_OPEN || code === ClientErrorCode.CLIENT_CLOSED) {
      return this.delay(job, token, this.settings.pauseRecheckMs);
    }
    const waitMs = jobWaitMs(error);
    if (waitMs !== null) return this.delay(job, token, waitMs);
    // Work done for other subjects before this error (a poll's other shops) needs no replay.
    if (subject.doneFor) await this.resolveDone(job, subject.doneFor({ error }));
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
        ...(job.id === undefined ? {} : { jobId: String(job.id) }),
      });
    } catch (recordError) {
      // Not swallowed either way: the job stays in the queue's failed set.
      this.logger.error(`Could not record the failure of job ${job.id}: ${String(recordError)}`);
      throw error;
    }
    throw markRecorded(new UnrecoverableError(`${info.code}: ${info.message}`));
  }

  /**
   * Resolves the open failures of the subjects the run did its work for. The run succeeded
   * whatever happens here: a database hiccup is logged, the failure stays open for the next one.
   */
  private async resolveDone(job: Job, subjects: readonly SubjectRef[]): Promise<void> {
    const byShop = new Map<string, string[]>();
    for (const { shop, key } of subjects) byShop.set(shop, [...(byShop.get(shop) ?? []), key]);
    const by = `${job.name} job ${job.id ?? 'unknown'}`;
    for (const [shop, keys] of byShop) {
      try {
        await this.failures.resolveSucceeded(shop, job.name, keys, by);
      } catch (error) {
        this.logger.error(`Could not resolve the failures ${by} succeeded for: ${String(error)}`);
      }
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
