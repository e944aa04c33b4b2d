import type { MigrationInterface, QueryRunner } from 'typeorm';
import { schemaOf } from './schema-of.js';

/**
 * One row per product sync run: the job, why it ran, the catalog calls it made (method, path,
 * status), its outcome and time. The product's timeline, and what tests read.
 */
export class CreateSyncRecords1764000000005 implements MigrationInterface {
  name = 'CreateSyncRecords1764000000005';

  async up(runner: QueryRunner): Promise<void> {
    const schema = schemaOf(runner);
    await runner.query(`
      CREATE TABLE ${schema}.sync_records (
        id bigserial PRIMARY KEY,
        shop text NOT NULL,
        product_id bigint NOT NULL,
        job_id text,
        reason text NOT NULL,
        outcome text NOT NULL,
        detail text,
        calls jsonb NOT NULL DEFAULT '[]'::jsonb,
        events jsonb NOT NULL DEFAULT '[]'::jsonb,
        error jsonb,
        started_at timestamptz NOT NULL,
        finished_at timestamptz NOT NULL
      )`);
    await runner.query(
      `CREATE INDEX sync_records_product ON ${schema}.sync_records (shop, product_id, id DESC)`,
    );
    await runner.query(`CREATE INDEX sync_records_finished ON ${schema}.sync_records (finished_at)`);
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query(`DROP TABLE ${schemaOf(runner)}.sync_records`);
  }
}
