import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import type { Repository } from 'typeorm';
import type { AccountSeriesKind } from './catalog-evidence.js';
import { OverviewMinute } from './overview-minute.entity.js';

/** The series kept in `overview_minutes`: every account's, and each catalog account's (`catalogEvidence`). */
export type OverviewSeries =
  | 'catalog_calls'
  | 'catalog_429'
  | 'enrichment_lag'
  | `${AccountSeriesKind}@${string}`;

/**
 * Why: the one owner of `overview_minutes`. Counters are added and the lag keeps the minute's
 * highest, each by one upsert keyed by the minute, so replicas writing at once never lose a count
 * and all read the same series.
 */
@Injectable()
export class OverviewMinutes {
  constructor(@InjectRepository(OverviewMinute) private readonly rows: Repository<OverviewMinute>) {}

  async add(series: OverviewSeries, at: number, amount: number): Promise<void> {
    await this.rows.query(
      `INSERT INTO ${this.table} AS m (minute, series, value) VALUES (date_trunc('minute', $1::timestamptz), $2, $3)
       ON CONFLICT (minute, series) DO UPDATE SET value = m.value + EXCLUDED.value`,
      [new Date(at), series, amount],
    );
  }

  async highest(series: OverviewSeries, at: number, value: number): Promise<void> {
    await this.rows.query(
      `INSERT INTO ${this.table} AS m (minute, series, value) VALUES (date_trunc('minute', $1::timestamptz), $2, $3)
       ON CONFLICT (minute, series) DO UPDATE SET value = GREATEST(m.value, EXCLUDED.value)`,
      [new Date(at), series, value],
    );
  }

  /** One series' minutes since `since`. */
  async since(series: OverviewSeries, since: Date): Promise<Array<{ minute: Date; count: number }>> {
    const rows = await this.rows
      .createQueryBuilder('m')
      .where('m.series = :series AND m.minute >= :since', { series, since })
      .getMany();
    return rows.map((row) => ({ minute: row.minute, count: row.value }));
  }

  /** Every catalog account's series (`<kind>@<account>`) summed since `since` (the catalog rules). */
  async accountSeriesSince(since: Date): Promise<Array<{ series: string; count: number }>> {
    const rows: Array<{ series: string; total: number }> = await this.rows.query(
      `SELECT series, sum(value) AS total FROM ${this.table}
        WHERE minute >= date_trunc('minute', $1::timestamptz) AND series LIKE '%@%' GROUP BY series`,
      [since],
    );
    return rows.map((row) => ({ series: row.series, count: Number(row.total) }));
  }

  /** Retention: deletes the minutes older than `before`; resolves to how many went. */
  async pruneBefore(before: Date): Promise<number> {
    const [, affected]: [unknown, number] = await this.rows.query(
      `DELETE FROM ${this.table} WHERE minute < $1`,
      [before],
    );
    return affected;
  }

  private get table(): string {
    return this.rows.metadata.tablePath;
  }
}
