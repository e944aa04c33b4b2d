import type { MigrationInterface, QueryRunner } from 'typeorm';
import { schemaOf } from './schema-of.js';

/**
 * Whole-shop reads through a bulk query: how each resync run read the shop (`read_mode`, its
 * bulk attempts), and the products a bulk read found, waiting for their syncs
 * (`resync_snapshots`, keyed by run and product, gone with their run).
 */
export class ResyncBulkReads1764000000060 implements MigrationInterface {
  name = 'ResyncBulkReads1764000000060';

  async up(runner: QueryRunner): Promise<void> {
    const s = schemaOf(runner);
    await runner.query(`
      ALTER TABLE ${s}.resync_runs
        ADD COLUMN read_mode text,
        ADD COLUMN bulk_attempts jsonb NOT NULL DEFAULT '[]'::jsonb,
        ADD CONSTRAINT resync_runs_read_mode_check CHECK (read_mode IN ('pages', 'bulk', 'bulk-fallback'))`);
    await runner.query(`
      CREATE TABLE ${s}.resync_snapshots (
        run_id bigint NOT NULL REFERENCES ${s}.resync_runs (id) ON DELETE CASCADE,
        shop text NOT NULL,
        product_id bigint NOT NULL,
        snapshot_at timestamptz NOT NULL,
        product jsonb NOT NULL,
        PRIMARY KEY (run_id, product_id)
      )`);
    await runner.query(
      `CREATE INDEX resync_snapshots_product_idx ON ${s}.resync_snapshots (shop, product_id)`,
    );
  }

  async down(runner: QueryRunner): Promise<void> {
    const s = schemaOf(runner);
    await runner.query(`DROP TABLE ${s}.resync_snapshots`);
    await runner.query(
      `ALTER TABLE ${s}.resync_runs DROP CONSTRAINT resync_runs_read_mode_check, DROP COLUMN bulk_attempts, DROP COLUMN read_mode`,
    );
  }
}
