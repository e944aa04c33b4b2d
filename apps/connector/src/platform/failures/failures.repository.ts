import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { MoreThanOrEqual, type Repository } from 'typeorm';
import {
  FAILURE_HISTORY_KEPT,
  Failure,
  type FailureOccurrence,
  type FailureState,
} from './failure.entity.js';
import type { FailureFilter, FailureInput } from './failures.service.js';

/**
 * Why: the `failures` table's one owner. `FailuresService` records, lists, replays and resolves
 * failures through it; other folders that must skip or count open failures inside one of their
 * own statements embed `openFailureExists` instead of naming the table.
 */
@Injectable()
export class FailuresRepository {
  constructor(@InjectRepository(Failure) private readonly failures: Repository<Failure>) {}

  /**
   * An SQL condition, true when an open failure of `jobKind` exists for the subject the caller's
   * row names: `on` gives the caller's SQL expressions for the shop and the subject key, and
   * optionally a time the failure must have failed at or after. Embedded in the caller's one
   * statement (a page cut by LIMIT stays full; a count stays one scan).
   */
  openFailureExists(jobKind: string, on: { shop: string; subjectKey: string; failedSince?: string }): string {
    if (!/^[a-z][a-z-]*$/.test(jobKind)) throw new Error(`Not a job kind: ${jobKind}`);
    const since = on.failedSince === undefined ? '' : ` AND f.last_failed_at >= ${on.failedSince}`;
    return `EXISTS (
            SELECT 1 FROM ${this.table} f
             WHERE f.state = 'open' AND f.shop = ${on.shop} AND f.job_kind = '${jobKind}'
               AND f.subject_key = ${on.subjectKey}${since})`;
  }

  /** `shop/redact`: deletes every row of the shop; resolves to how many went. */
  async purgeShop(shop: string): Promise<number> {
    return (await this.failures.delete({ shop })).affected ?? 0;
  }

  /**
   * Opens a failure, or adds to the open one of the same shop, kind, subject and cause (error
   * code): its attempts and occurrences grow, its message and payload become the latest, and the
   * occurrence joins its history (the latest `FAILURE_HISTORY_KEPT`). Resolves to its id.
   */
  async openOrAdd(input: FailureInput, now: Date): Promise<string> {
    const occurrence: FailureOccurrence = {
      at: now.toISOString(),
      attempts: input.attempts,
      message: input.error.message.slice(0, 500),
      ...(input.jobId === undefined ? {} : { jobId: input.jobId }),
    };
    const rows: Array<{ id: string }> = await this.failures.query(
      `INSERT INTO ${this.table} AS f (shop, job_kind, subject_key, payload, error_code, error_message, retryable,
                              attempts, first_failed_at, last_failed_at, state, occurrences, history)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $9, 'open', 1, jsonb_build_array($10::jsonb))
       ON CONFLICT (shop, job_kind, subject_key, error_code) WHERE state = 'open'
       DO UPDATE SET payload = EXCLUDED.payload, error_message = EXCLUDED.error_message,
                     retryable = EXCLUDED.retryable, attempts = f.attempts + EXCLUDED.attempts,
                     last_failed_at = EXCLUDED.last_failed_at, occurrences = f.occurrences + 1,
                     history = (SELECT jsonb_agg(h.entry ORDER BY h.n)
                                  FROM jsonb_array_elements(f.history || EXCLUDED.history)
                                       WITH ORDINALITY AS h(entry, n)
                                 WHERE h.n > jsonb_array_length(f.history) + 1 - ${FAILURE_HISTORY_KEPT})
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
        JSON.stringify(occurrence),
      ],
    );
    return rows[0]?.id as string;
  }

  get(id: string): Promise<Failure | null> {
    return this.failures.findOneBy({ id });
  }

  list(
    filter: { shop?: string; state?: FailureState; jobKind?: string; subjectKey?: string },
    limit: number,
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

  /** Deletes at most `limit` failures resolved before `before`; resolves to how many went. */
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

  /** Open failures per shop, job kind and error code (the overview names each one's cause). */
  async openCountsByCode(): Promise<
    Array<{ shop: string; jobKind: string; errorCode: string; count: number }>
  > {
    const rows: Array<{ shop: string; job_kind: string; error_code: string; count: string }> =
      await this.failures.query(
        `SELECT shop, job_kind, error_code, count(*) AS count FROM ${this.table}
          WHERE state = 'open' GROUP BY shop, job_kind, error_code`,
      );
    return rows.map((row) => ({
      shop: row.shop,
      jobKind: row.job_kind,
      errorCode: row.error_code,
      count: Number(row.count),
    }));
  }

  /** Failures per minute of `column` (when they were opened, or resolved) since `since`. */
  async perMinute(
    column: 'first_failed_at' | 'resolved_at',
    since: Date,
  ): Promise<Array<{ minute: Date; count: number }>> {
    const rows: Array<{ minute: Date; count: string }> = await this.failures.query(
      `SELECT date_trunc('minute', ${column}) AS minute, count(*) AS count FROM ${this.table}
        WHERE ${column} >= $1 GROUP BY 1`,
      [since],
    );
    return rows.map((row) => ({ minute: new Date(row.minute), count: Number(row.count) }));
  }

  /** Closes the failure if it is open; resolves to whether it was. */
  async close(id: string, state: Exclude<FailureState, 'open'>, resolvedAt: Date): Promise<boolean> {
    const result = await this.failures.update({ id, state: 'open' }, { state, resolvedAt });
    return (result.affected ?? 0) > 0;
  }

  /** Opens again a failure marked `replayed` whose replay threw. */
  async reopenReplayed(id: string): Promise<void> {
    await this.failures.update({ id, state: 'replayed' }, { state: 'open', resolvedAt: null });
  }

  /**
   * Marks `resolved` (now, by `by`) every open failure of these subjects, whatever its cause;
   * resolves to the ids closed.
   */
  async resolveOpen(
    subjects: { shop: string; jobKind: string; subjectKeys: readonly string[] },
    resolvedAt: Date,
    by: string,
  ): Promise<string[]> {
    const [rows]: [Array<{ id: string }>, number] = await this.failures.query(
      `UPDATE ${this.table} SET state = 'resolved', resolved_at = $4, resolved_by = $5
        WHERE state = 'open' AND shop = $1 AND job_kind = $2 AND subject_key = ANY($3::text[])
        RETURNING id::text AS id`,
      [subjects.shop, subjects.jobKind, [...subjects.subjectKeys], resolvedAt, by],
    );
    return rows.map((row) => row.id);
  }

  private get table(): string {
    return this.failures.metadata.tablePath;
  }
}
