import type { MigrationInterface, QueryRunner } from 'typeorm';
import { schemaOf } from './schema-of.js';

/** One shape of failure for every job kind; at most one open failure per shop, kind and subject. */
export class CreateFailures1764000000001 implements MigrationInterface {
  name = 'CreateFailures1764000000001';

  async up(runner: QueryRunner): Promise<void> {
    const s = schemaOf(runner);
    await runner.query(`
      CREATE TABLE ${s}.failures (
        id bigserial PRIMARY KEY,
        shop text NOT NULL,
        job_kind text NOT NULL,
        subject_key text NOT NULL,
        payload jsonb NOT NULL,
        error_code text NOT NULL,
        error_message text NOT NULL,
        retryable boolean NOT NULL,
        attempts integer NOT NULL,
        first_failed_at timestamptz NOT NULL,
        last_failed_at timestamptz NOT NULL,
        state text NOT NULL DEFAULT 'open',
        resolved_at timestamptz,
        CONSTRAINT failures_state_check CHECK (state IN ('open', 'replayed', 'dismissed'))
      )`);
    await runner.query(
      `CREATE UNIQUE INDEX failures_open_subject_idx ON ${s}.failures (shop, job_kind, subject_key) WHERE state = 'open'`,
    );
    await runner.query(`CREATE INDEX failures_shop_state_idx ON ${s}.failures (shop, state, last_failed_at)`);
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query(`DROP TABLE ${schemaOf(runner)}.failures`);
  }
}
