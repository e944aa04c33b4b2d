import type { MigrationInterface, QueryRunner } from 'typeorm';
import { schemaOf } from './schema-of.js';

/**
 * Dry runs of resync and reconciliation (issue 31): a run may be a dry run (`dry_run`), a run
 * may be a reconciliation started by an operator (scope `reconcile`), and each product a dry
 * run planned keeps its plan (`resync_run_products.plan`: the calls live would send).
 */
export class ResyncDryRuns1764000000087 implements MigrationInterface {
  name = 'ResyncDryRuns1764000000087';

  async up(runner: QueryRunner): Promise<void> {
    const s = schemaOf(runner);
    await runner.query(`ALTER TABLE ${s}.resync_runs ADD COLUMN dry_run boolean NOT NULL DEFAULT false`);
    await runner.query(`ALTER TABLE ${s}.resync_runs DROP CONSTRAINT resync_runs_scope_check`);
    await runner.query(
      `ALTER TABLE ${s}.resync_runs ADD CONSTRAINT resync_runs_scope_check CHECK (scope IN ('product', 'shop', 'reconcile'))`,
    );
    await runner.query(`ALTER TABLE ${s}.resync_run_products ADD COLUMN plan jsonb`);
  }

  async down(runner: QueryRunner): Promise<void> {
    const s = schemaOf(runner);
    await runner.query(`ALTER TABLE ${s}.resync_run_products DROP COLUMN plan`);
    await runner.query(`DELETE FROM ${s}.resync_runs WHERE scope = 'reconcile'`);
    await runner.query(`ALTER TABLE ${s}.resync_runs DROP CONSTRAINT resync_runs_scope_check`);
    await runner.query(
      `ALTER TABLE ${s}.resync_runs ADD CONSTRAINT resync_runs_scope_check CHECK (scope IN ('product', 'shop'))`,
    );
    await runner.query(`ALTER TABLE ${s}.resync_runs DROP COLUMN dry_run`);
  }
}
