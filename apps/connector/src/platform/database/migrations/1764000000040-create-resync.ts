import type { MigrationInterface, QueryRunner } from 'typeorm';
import { schemaOf } from './schema-of.js';

/**
 * Resync runs (one product, or a whole shop walked page by page from a persisted cursor), the
 * products each run enqueued (their progress), and each shop's reconciliation checkpoint.
 */
export class CreateResync1764000000040 implements MigrationInterface {
  name = 'CreateResync1764000000040';

  async up(runner: QueryRunner): Promise<void> {
    const s = schemaOf(runner);
    await runner.query(`
      CREATE TABLE ${s}.resync_runs (
        id bigserial PRIMARY KEY,
        shop text NOT NULL,
        scope text NOT NULL,
        product_id bigint,
        state text NOT NULL,
        cursor text,
        pages integer NOT NULL DEFAULT 0,
        listed integer NOT NULL DEFAULT 0,
        walk_done boolean NOT NULL DEFAULT false,
        error text,
        created_at timestamptz NOT NULL,
        updated_at timestamptz NOT NULL,
        finished_at timestamptz,
        CONSTRAINT resync_runs_scope_check CHECK (scope IN ('product', 'shop')),
        CONSTRAINT resync_runs_state_check CHECK (state IN ('running', 'done', 'cancelled', 'failed')),
        CONSTRAINT resync_runs_product_check CHECK ((scope = 'product') = (product_id IS NOT NULL))
      )`);
    await runner.query(
      `CREATE INDEX resync_runs_active_idx ON ${s}.resync_runs (state) WHERE state = 'running'`,
    );
    await runner.query(`
      CREATE TABLE ${s}.resync_run_products (
        run_id bigint NOT NULL REFERENCES ${s}.resync_runs (id) ON DELETE CASCADE,
        shop text NOT NULL,
        product_id bigint NOT NULL,
        state text NOT NULL DEFAULT 'queued',
        enqueued_at timestamptz NOT NULL,
        done_at timestamptz,
        PRIMARY KEY (run_id, product_id),
        CONSTRAINT resync_run_products_state_check CHECK (state IN ('queued', 'done'))
      )`);
    await runner.query(
      `CREATE INDEX resync_run_products_queued_idx ON ${s}.resync_run_products (shop, product_id) WHERE state = 'queued'`,
    );
    await runner.query(`
      CREATE TABLE ${s}.reconcile_checkpoints (
        shop text PRIMARY KEY,
        checkpoint timestamptz NOT NULL,
        last_run_at timestamptz NOT NULL,
        last_changed integer NOT NULL DEFAULT 0,
        last_deleted integer NOT NULL DEFAULT 0
      )`);
  }

  async down(runner: QueryRunner): Promise<void> {
    const s = schemaOf(runner);
    await runner.query(`DROP TABLE ${s}.reconcile_checkpoints`);
    await runner.query(`DROP TABLE ${s}.resync_run_products`);
    await runner.query(`DROP TABLE ${s}.resync_runs`);
  }
}
