import { Injectable, Logger } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { In, MoreThanOrEqual, type Repository } from 'typeorm';
import { Clock } from '#lib/clock';
import { Observations } from '../reporting/observations.js';
import { Failure, type FailureState } from './failure.entity.js';
import type { JobErrorInfo } from './job-error.js';
import { ReplayRegistry } from './replay-registry.js';

/** A failure to record: which job, about what, and why. */
export interface FailureInput {
  shop: string;
  jobKind: string;
  subjectKey: string;
  payload: Record<string, unknown>;
  error: JobErrorInfo;
  attempts: number;
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
    @InjectRepository(Failure) private readonly failures: Repository<Failure>,
    private readonly registry: ReplayRegistry,
    private readonly clock: Clock,
    private readonly observations: Observations,
  ) {}

  /** `shop/redact`: deletes every row of the shop (`ShopDataRegistry`); resolves to how many went. */
  async purgeShop(shop: string): Promise<number> {
    return (await this.failures.delete({ shop })).affected ?? 0;
  }

  /** Opens a failure, or adds to the open one of the same shop, kind and subject. */
  async record(input: FailureInput): Promise<string> {
    const now = new Date(this.clock.now());
    const rows: Array<{ id: string }> = await this.failures.query(
      `INSERT INTO ${this.table} AS f (shop, job_kind, subject_key, payload, error_code, error_message, retryable,
                              attempts, first_failed_at, last_failed_at, state)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $9, 'open')
       ON CONFLICT (shop, job_kind, subject_key) WHERE state = 'open'
       DO UPDATE SET payload = EXCLUDED.payload, error_code = EXCLUDED.error_code,
                     error_message = EXCLUDED.error_message, retryable = EXCLUDED.retryable,
                     attempts = f.attempts + EXCLUDED.attempts, last_failed_at = EXCLUDED.last_failed_at
       RETURNING id`,
      [
        input.shop,
        input.jobKind,
        input.subjectKey,
        JSON.stringify(input.payload),
        input.error.code,
        input.error.message.slice(0, 4_000),
        input.error.retryable,
        input.attempts,
        now,
      ],
    );
    const id = rows[0]?.id as string;
    this.logger.warn(
      `${input.jobKind} ${input.shop}/${input.subjectKey} failed (${input.error.code}): failure ${id}`,
    );
    return id;
  }

  get(id: string): Promise<Failure | null> {
    return this.failures.findOneBy({ id });
  }

  list(
    filter: { shop?: string; state?: FailureState; jobKind?: string; subjectKey?: string } = {},
    limit = 100,
  ): Promise<Failure[]> {
    return this.failures.find({ where: filter, order: { lastFailedAt: 'DESC' }, take: limit });
  }

  /** One page of the failures matching `filter`, the latest failure first, and how many match. */
  async search(
    filter: FailureFilter,
    page: { limit: number; offset: number },
  ): Promise<{ items: Failure[]; total: number }> {
    const { since, ...columns } = filter;
    const where = Object.fromEntries(Object.entries(columns).filter(([, value]) => value !== undefined));
    const [items, total] = await this.failures.findAndCount({
      where: since === undefined ? where : { ...where, lastFailedAt: MoreThanOrEqual(since) },
      order: { lastFailedAt: 'DESC', id: 'DESC' },
      take: page.limit,
      skip: page.offset,
    });
    return { items, total };
  }

  /**
   * Deletes at most `limit` failures resolved (replayed, dismissed, resolved by a later success)
   * before `before`; resolves to how many went (the retention job repeats it in batches).
   */
  async deleteResolvedBatch(before: Date, limit: number): Promise<number> {
    const [, affected]: [unknown, number] = await this.failures.query(
      `DELETE FROM ${this.table} WHERE id IN (SELECT id FROM ${this.table}
         WHERE state <> 'open' AND resolved_at < $1 ORDER BY resolved_at LIMIT $2)`,
      [before, limit],
    );
    return affected;
  }

  /** Open failures per shop and job kind (the metrics' gauge). */
  async openCounts(): Promise<Array<{ shop: string; jobKind: string; count: number }>> {
    const rows: Array<{ shop: string; job_kind: string; count: string }> = await this.failures.query(
      `SELECT shop, job_kind, count(*) AS count FROM ${this.table} WHERE state = 'open' GROUP BY shop, job_kind`,
    );
    return rows.map((row) => ({ shop: row.shop, jobKind: row.job_kind, count: Number(row.count) }));
  }

  /** Failures opened and resolved per minute since `since` (the overview's chart). */
  async perMinute(since: Date): Promise<{
    opened: Array<{ minute: Date; count: number }>;
    resolved: Array<{ minute: Date; count: number }>;
  }> {
    const count = async (column: string) => {
      const rows: Array<{ minute: Date; count: string }> = await this.failures.query(
        `SELECT date_trunc('minute', ${column}) AS minute, count(*) AS count FROM ${this.table}
          WHERE ${column} >= $1 GROUP BY 1`,
        [since],
      );
      return rows.map((row) => ({ minute: new Date(row.minute), count: Number(row.count) }));
    };
    return { opened: await count('first_failed_at'), resolved: await count('resolved_at') };
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
      await this.failures.update({ id, state: 'replayed' }, { state: 'open', resolvedAt: null });
      throw error;
    }
    return failure;
  }

  /** Closes an open failure without running it again. */
  dismiss(id: string): Promise<Failure> {
    return this.resolve(id, 'dismissed');
  }

  /**
   * Closes the open failures of these subjects because their work has since succeeded on its own
   * (a later run did it): they are marked `resolved` now (counted in the metrics, pruned by
   * retention like replayed ones).
   * Resolves to the ids closed; subjects with no open failure are skipped.
   */
  async resolveSucceeded(shop: string, jobKind: string, subjectKeys: readonly string[]): Promise<string[]> {
    if (subjectKeys.length === 0) return [];
    const open = await this.failures.find({
      select: { id: true },
      where: { shop, jobKind, state: 'open', subjectKey: In([...subjectKeys]) },
    });
    if (open.length === 0) return [];
    const ids = open.map((failure) => failure.id);
    const result = await this.failures.update(
      { id: In(ids), state: 'open' },
      { state: 'resolved', resolvedAt: new Date(this.clock.now()) },
    );
    this.observations.failuresResolved({ shop, jobKind, count: result.affected ?? ids.length });
    this.logger.log(
      `${jobKind} ${shop}: ${ids.length} failure(s) resolved by a later run (${ids.join(', ')})`,
    );
    return ids;
  }

  private async resolve(id: string, state: Exclude<FailureState, 'open'>): Promise<Failure> {
    const resolvedAt = new Date(this.clock.now());
    const result = await this.failures.update({ id, state: 'open' }, { state, resolvedAt });
    const failure = await this.get(id);
    if (!failure || (result.affected ?? 0) === 0) throw new FailureNotOpenError(id);
    return failure;
  }

  private get table(): string {
    return this.failures.metadata.tablePath;
  }
}

/** The failure does not exist or is not open (already replayed or dismissed). */
export class FailureNotOpenError extends Error {
  constructor(readonly failureId: string) {
    super(`Failure ${failureId} is not open`);
    this.name = 'FailureNotOpenError';
  }
}
