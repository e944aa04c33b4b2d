import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import type { Repository } from 'typeorm';
import { Clock } from '#lib/clock';
import { pruneInBatches } from '../../platform/reporting/retention-registry.service.js';
import { EnrichmentPollRun, type PollRunCounts } from './enrichment-poll-run.entity.js';

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
   * The latest polls started since `since`, newest first; with a shop, those that polled it or
   * failed (a failed poll stores no shop's counts, and may have failed on any shop).
   */
  latest(filter: { shop: string | null; since: Date }, limit: number): Promise<EnrichmentPollRun[]> {
    const query = this.runs
      .createQueryBuilder('r')
      .where('COALESCE(r.started_at, r.requested_at) >= :since', { since: filter.since })
      .orderBy('COALESCE(r.started_at, r.requested_at)', 'DESC')
      .limit(limit);
    if (filter.shop !== null)
      query.andWhere("(r.counts->'shops' ? :shop OR r.error IS NOT NULL)", { shop: filter.shop });
    return query.getMany();
  }

  /**
   * When each poll that finished its work (no error) since `since` finished, oldest first, with
   * the last one before `since` ahead of them: the overview's poll lag, minute by minute.
   */
  async finishedSince(since: Date): Promise<Date[]> {
    const rows: Array<{ finished_at: Date }> = await this.runs.query(
      `SELECT finished_at FROM ${this.runs.metadata.tablePath}
        WHERE error IS NULL AND finished_at IS NOT NULL
          AND finished_at >= COALESCE((SELECT max(finished_at) FROM ${this.runs.metadata.tablePath}
                                        WHERE error IS NULL AND finished_at < $1), $1)
        ORDER BY finished_at`,
      [since],
    );
    return rows.map((row) => new Date(row.finished_at));
  }

  find(id: string): Promise<EnrichmentPollRun | null> {
    return this.runs.findOneBy({ id });
  }
}
