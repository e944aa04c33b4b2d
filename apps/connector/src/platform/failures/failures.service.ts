import { Injectable, Logger } from '@nestjs/common';
import { Clock } from '#lib/clock';
import { Observations } from '../reporting/observations.service.js';
import type { Failure, FailureState } from './failure.entity.js';
import { FailuresRepository } from './failures.repository.js';
import type { JobErrorInfo } from './job-error.js';
import { ReplayRegistry } from './replay-registry.service.js';

/** A failure to record: which job, about what, and why. */
export interface FailureInput {
  shop: string;
  jobKind: string;
  subjectKey: string;
  payload: Record<string, unknown>;
  error: JobErrorInfo;
  attempts: number;
  /** The job that failed, for the failure's history. */
  jobId?: string;
}

/** What the failures inbox can be filtered by (every field optional; all given must match). */
export interface FailureFilter {
  shop?: string;
  jobKind?: string;
  state?: FailureState;
  subjectKey?: string;
  /** Failed last at or after this time (the web view's time filter). */
  since?: Date;
}

/** The failures inbox: record, list, replay, dismiss. Nothing that failed is ever swallowed. */
@Injectable()
export class FailuresService {
  private readonly logger = new Logger('Failures');

  constructor(
    private readonly failures: FailuresRepository,
    private readonly registry: ReplayRegistry,
    private readonly clock: Clock,
    private readonly observations: Observations,
  ) {}

  /** `shop/redact`: deletes every row of the shop (`ShopDataRegistry`); resolves to how many went. */
  purgeShop(shop: string): Promise<number> {
    return this.failures.purgeShop(shop);
  }

  /** Opens a failure, or adds to the open one of the same shop, kind, subject and cause. */
  async record(input: FailureInput): Promise<string> {
    const id = await this.failures.openOrAdd(input, new Date(this.clock.now()));
    this.logger.warn(
      `${input.jobKind} ${input.shop}/${input.subjectKey} failed (${input.error.code}): failure ${id}`,
    );
    return id;
  }

  get(id: string): Promise<Failure | null> {
    return this.failures.get(id);
  }

  list(
    filter: { shop?: string; state?: FailureState; jobKind?: string; subjectKey?: string } = {},
    limit = 100,
  ): Promise<Failure[]> {
    return this.failures.list(filter, limit);
  }

  /** One page of the failures matching `filter`, the latest failure first, and how many match. */
  search(
    filter: FailureFilter,
    page: { limit: number; offset: number },
  ): Promise<{ items: Failure[]; total: number }> {
    return this.failures.search(filter, page);
  }

  /**
   * Deletes at most `limit` failures resolved (replayed, dismissed, resolved by a later success)
   * before `before`; resolves to how many went (the retention job repeats it in batches).
   */
  deleteResolvedBatch(before: Date, limit: number): Promise<number> {
    return this.failures.deleteResolvedBatch(before, limit);
  }

  /** Open failures per shop and job kind (the metrics' gauge). */
  openCounts(): Promise<Array<{ shop: string; jobKind: string; count: number }>> {
    return this.failures.openCounts();
  }

  /** Open failures per shop, job kind and error code. */
  openCountsByCode(): Promise<Array<{ shop: string; jobKind: string; errorCode: string; count: number }>> {
    return this.failures.openCountsByCode();
  }

  /** Failures opened and resolved per minute since `since` (the overview's chart). */
  async perMinute(since: Date): Promise<{
    opened: Array<{ minute: Date; count: number }>;
    resolved: Array<{ minute: Date; count: number }>;
  }> {
    return {
      opened: await this.failures.perMinute('first_failed_at', since),
      resolved: await this.failures.perMinute('resolved_at', since),
    };
  }

  /**
   * Runs an open failure's job again through its kind's handler. It is marked `replayed` first, so
   * that the replayed job failing again opens a new failure instead of updating this one.
   */
  async replay(id: string): Promise<Failure> {
    const failure = await this.resolve(id, 'replayed');
    try {
      await this.registry.handlerFor(failure.jobKind)(failure);
    } catch (error) {
      await this.failures.reopenReplayed(id);
      throw error;
    }
    return failure;
  }

  /** Closes an open failure without running it again. */
  dismiss(id: string): Promise<Failure> {
    return this.resolve(id, 'dismissed');
  }

  /**
   * Closes the open failures of these subjects, whatever their cause, because their work has
   * since succeeded on its own (`by`: the run that did it, e.g. `sync-product job 42`): they are
   * marked `resolved` now (counted in the metrics, pruned by retention like replayed ones).
   * Resolves to the ids closed; subjects with no open failure are skipped.
   */
  async resolveSucceeded(
    shop: string,
    jobKind: string,
    subjectKeys: readonly string[],
    by: string,
  ): Promise<string[]> {
    if (subjectKeys.length === 0) return [];
    const ids = await this.failures.resolveOpen(
      { shop, jobKind, subjectKeys },
      new Date(this.clock.now()),
      by,
    );
    if (ids.length === 0) return [];
    this.observations.failuresResolved({ shop, jobKind, count: ids.length });
    this.logger.log(`${jobKind} ${shop}: ${ids.length} failure(s) resolved by ${by} (${ids.join(', ')})`);
    return ids;
  }

  private async resolve(id: string, state: Exclude<FailureState, 'open'>): Promise<Failure> {
    const closed = await this.failures.close(id, state, new Date(this.clock.now()));
    const failure = await this.get(id);
    if (!failure || !closed) throw new FailureNotOpenError(id);
    return failure;
  }
}

/** The failure does not exist or is not open (already replayed or dismissed). */
export class FailureNotOpenError extends Error {
  constructor(readonly failureId: string) {
    super(`Failure ${failureId} is not open`);
    this.name = 'FailureNotOpenError';
  }
}
