import type { MigrationInterface, QueryRunner } from 'typeorm';
import { schemaOf } from './schema-of.js';

/**
 * Run history (issue 42): a sync record keeps the product's title when the run read it (a run's
 * error report names the product beside its id), and a shop's latest records are found by an
 * index of their own (the overview's "last successful sync" of each shop).
 */
export class SyncRecordTitles1764000000105 implements MigrationInterface {
  name = 'SyncRecordTitles1764000000105';

  async up(runner: QueryRunner): Promise<void> {
    const s = schemaOf(runner);
    await runner.query(`ALTER TABLE ${s}.sync_records ADD COLUMN title text`);
    await runner.query(
      `CREATE INDEX sync_records_shop_finished ON ${s}.sync_records (shop, finished_at DESC)`,
    );
  }

  async down(runner: QueryRunner): Promise<void> {
    const s = schemaOf(runner);
    await runner.query(`DROP INDEX ${s}.sync_records_shop_finished`);
    await runner.query(`ALTER TABLE ${s}.sync_records DROP COLUMN title`);
  }
}
