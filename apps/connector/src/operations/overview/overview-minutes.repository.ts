import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import type { Repository } from 'typeorm';
import { OverviewMinute } from './overview-minute.entity.js';

/** The series kept in `overview_minutes`. */
export type OverviewSeries = 'catalog_calls' | 'catalog_429' | 'enrichment_lag';

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
