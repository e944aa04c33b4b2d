import type { MigrationInterface, QueryRunner } from 'typeorm';
import { schemaOf } from './schema-of.js';

/**
 * The overview's per-minute series that no other table keeps (issue 33): catalog calls and 429s,
 * the enrichment poll's lag. One row per minute and series, incremented by upserts from every
 * replica (counters add, the lag keeps the highest), so every replica draws the same charts.
 */
export class CreateOverviewMinutes1764000000086 implements MigrationInterface {
  name = 'CreateOverviewMinutes1764000000086';

  async up(runner: QueryRunner): Promise<void> {
    const s = schemaOf(runner);
    await runner.query(
      `CREATE TABLE ${s}.overview_minutes (
         minute timestamptz NOT NULL,
         series text NOT NULL,
         value double precision NOT NULL,
         PRIMARY KEY (minute, series)
       )`,
    );
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query(`DROP TABLE ${schemaOf(runner)}.overview_minutes`);
  }
}
