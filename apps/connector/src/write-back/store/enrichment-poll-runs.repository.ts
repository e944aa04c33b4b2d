import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import type { Repository } from 'typeorm';
import { Clock } from '#lib/clock';
import { pruneInBatches } from '../../platform/reporting/retention-registry.service.js';
import { EnrichmentPollRun, type PollRunCounts, type PollTrigger } from './enrichment-poll-run.entity.js';

/** Poll runs: requested (admin or schedule), started, finished with counts or an error. */
@Injectable()
export class EnrichmentPollRuns {
  constructor(
    @InjectRepository(EnrichmentPollRun) private readonly runs: Repository<EnrichmentPollRun>,
    private readonly clock: Clock,
  ) {}

  /** Records a requested poll (idempotent: a scheduled job records itself when it starts). */
  async requested(id: string, trigger: EnrichmentPollRun['trigger']): Promise<void> {
    await this.runs
      .createQueryBuilder()
      .insert()
      .values({ id, trigger, requestedAt: new Date(this.clock.now()), counts: {} })
      .orIgnore()
      .execute();
  }

  async started(id: string, trigger: EnrichmentPollRun['trigger']): Promise<void> {
    await this.requested(id, trigger);
    await this.runs.update({ id }, { startedAt: new Date(this.clock.now()), finishedAt: null, error: null });
  }

  async finished(id: string, counts: PollRunCounts, error: string | null = null): Promise<void> {
    await this.runs.update({ id }, { finishedAt: new Date(this.clock.now()), counts, error });
  }

  /** `shop/redact`: the shop's part of every poll's counts goes; resolves to the polls changed. */
  async forgetShop(shop: string): Promise<number> {
    const [, affected]: [unknown, number] = await this.runs.query(
      `UPDATE ${this.runs.metadata.tablePath} SET counts = counts #- ARRAY['shops', $1::text]
        WHERE counts->'shops' ? $1`,
      [shop],
    );
    return affected;
  }

  /** Drops polls finished before `before`, in batches (retention); resolves to how many. */
  prune(before: Date): Promise<number> {
    const table = this.runs.metadata.tablePath;
    return pruneInBatches(async (limit) => {
      const result = await this.runs
        .createQueryBuilder()
        .delete()
        .where(`id IN (SELECT id FROM ${table} WHERE finished_at < :before LIMIT :limit)`, { before, limit })
        .execute();
      return result.affected ?? 0;
    });
  }

  /**
   * The latest polls started since `since`, newest first; with a shop, those that polled it,
   * held it (its catalog work waited) or failed (a failed poll stores no shop's counts, and may
   * have failed on any shop).
   */
  latest(filter: { shop: string | null; since: Date }, limit: number): Promise<EnrichmentPollRun[]> {
    const query = this.runs
      .createQueryBuilder('r')
      .where('COALESCE(r.started_at, r.requested_at) >= :since', { since: filter.since })
      .orderBy('COALESCE(r.started_at, r.requested_at)', 'DESC')
      .limit(limit);
    if (filter.shop !== null)
      query.andWhere("(r.counts->'shops' ? :shop OR r.counts->'held' ? :shop OR r.error IS NOT NULL)", {
        shop: filter.shop,
      });
    return query.getMany();
  }

  /**
   * Per shop, when its latest poll that polled it finished (the shop's part is in the poll's
   * counts: its work was committed); absent when no kept poll did (the overview's "last poll").
   */
  async lastPolled(shops: readonly string[]): Promise<Map<string, Date>> {
    const rows: Array<{ shop: string; at: Date | null }> = await this.runs.query(
      `SELECT s.shop, (SELECT max(r.finished_at) FROM ${this.runs.metadata.tablePath} r
                        WHERE r.finished_at IS NOT NULL AND r.counts->'shops' ? s.shop) AS at
         FROM unnest($1::text[]) AS s(shop)`,
      [[...shops]],
    );
    return new Map(rows.flatMap((row) => (row.at === null ? [] : [[row.shop, new Date(row.at)]])));
  }

  /**
   * The last early poll that finished, of any replica: when it started and ended (the early polls'
   * duty bound, `EarlyPolls`); null before any.
   */
  async lastEarly(): Promise<{ startedAt: Date; finishedAt: Date } | null> {
    const rows: Array<{ started_at: Date | null; finished_at: Date }> = await this.runs.query(
      `SELECT started_at, finished_at FROM ${this.runs.metadata.tablePath}
        WHERE trigger = 'early' AND finished_at IS NOT NULL
        ORDER BY finished_at DESC LIMIT 1`,
    );
    const row = rows[0];
    if (row === undefined) return null;
    const finishedAt = new Date(row.finished_at);
    return { startedAt: row.started_at === null ? finishedAt : new Date(row.started_at), finishedAt };
  }

  /** When the scheduler last asked for a poll (the poll of every shop; an operator's polls aside); null before any. */
  async lastScheduled(): Promise<Date | null> {
    const rows: Array<{ at: Date | null }> = await this.runs.query(
      `SELECT max(requested_at) AS at FROM ${this.runs.metadata.tablePath} WHERE trigger = 'schedule'`,
    );
    const at = rows[0]?.at ?? null;
    return at === null ? null : new Date(at);
  }

  /**
   * When each poll that finished its work (no error, not paused: a poll that held every shop
   * polled none) since `since` finished, oldest first, with the last one before `since` ahead of
   * them: the overview's poll lag, minute by minute.
   */
  async finishedSince(since: Date): Promise<Date[]> {
    const table = this.runs.metadata.tablePath;
    const worked = `error IS NULL AND NOT (counts ? 'held' AND COALESCE(counts->'shops', '{}'::jsonb) = '{}'::jsonb)`;
    const rows: Array<{ finished_at: Date }> = await this.runs.query(
      `SELECT finished_at FROM ${table}
        WHERE ${worked} AND finished_at IS NOT NULL
          AND finished_at >= COALESCE((SELECT max(finished_at) FROM ${table}
                                        WHERE ${worked} AND finished_at < $1), $1)
        ORDER BY finished_at`,
      [since],
    );
    return rows.map((row) => new Date(row.finished_at));
  }

  /**
   * The catalog calls of the polls that finished their work since `since`, per trigger and shop
   * (each shop's part of each poll, `counts.shops`), and when the oldest poll kept started (the
   * connector's first, or the retention's edge): the poll's share of each account's budget
   * (`PollBudgetShares`). A failed poll stores no counts, so its calls are not in them.
   */
  async callsSince(since: Date): Promise<{
    rows: Array<{ trigger: PollTrigger; shop: string; polls: number; calls: number }>;
    oldest: Date | null;
  }> {
    const table = this.runs.metadata.tablePath;
    const [rows, oldest]: [
      Array<{ trigger: PollTrigger; shop: string; polls: number; calls: number }>,
      Array<{ at: Date | null }>,
    ] = await Promise.all([
      this.runs.query(
        `SELECT r.trigger, s.key AS shop, count(*)::int AS polls,
                COALESCE(sum((s.value->>'calls')::int), 0)::int AS calls
           FROM ${table} r CROSS JOIN LATERAL jsonb_each(COALESCE(r.counts->'shops', '{}'::jsonb)) s
          WHERE r.finished_at IS NOT NULL AND r.error IS NULL
            AND COALESCE(r.started_at, r.requested_at) >= $1
          GROUP BY r.trigger, s.key`,
        [since],
      ),
      this.runs.query(`SELECT min(COALESCE(started_at, requested_at)) AS at FROM ${table}`),
    ]);
    const at = oldest[0]?.at ?? null;
    return { rows, oldest: at === null ? null : new Date(at) };
  }

  find(id: string): Promise<EnrichmentPollRun | null> {
    return this.runs.findOneBy({ id });
  }
}
