import type { MigrationInterface, QueryRunner } from 'typeorm';
import { schemaOf } from './schema-of.js';

/**
 * Issue 42: one open failure per subject and cause (shop, job kind, subject, error code), each
 * with its history (the last occurrences: when, which job, how many attempts, what it said), how
 * often it happened, and what resolved it (`resolved_by`: the job whose success closed it).
 * The enrichment poll's failures were one subject per cause (`poll:<code>`); the cause is now the
 * error code, so their subject becomes the shop's poll (`poll`), resolved by its next success.
 */
export class FailuresPerCause1764000000101 implements MigrationInterface {
  name = 'FailuresPerCause1764000000101';

  async up(runner: QueryRunner): Promise<void> {
    const s = schemaOf(runner);
    await runner.query(`ALTER TABLE ${s}.failures
      ADD COLUMN occurrences integer NOT NULL DEFAULT 1,
      ADD COLUMN history jsonb NOT NULL DEFAULT '[]'::jsonb,
      ADD COLUMN resolved_by text`);
    await runner.query(`UPDATE ${s}.failures SET history = jsonb_build_array(jsonb_build_object(
      'at', to_char(last_failed_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
      'attempts', attempts, 'message', left(error_message, 500)))`);
    await runner.query(`DROP INDEX ${s}.failures_open_subject_idx`);
    await runner.query(
      `UPDATE ${s}.failures SET subject_key = 'poll' WHERE job_kind = 'enrichment-poll' AND subject_key LIKE 'poll:%'`,
    );
    await runner.query(
      `CREATE UNIQUE INDEX failures_open_cause_idx ON ${s}.failures (shop, job_kind, subject_key, error_code) WHERE state = 'open'`,
    );
  }

  async down(runner: QueryRunner): Promise<void> {
    const s = schemaOf(runner);
    await runner.query(`DROP INDEX ${s}.failures_open_cause_idx`);
    await runner.query(
      `UPDATE ${s}.failures SET subject_key = 'poll:' || error_code WHERE job_kind = 'enrichment-poll' AND subject_key = 'poll'`,
    );
    // One open failure per subject again: the latest of each subject stays open.
    await runner.query(`UPDATE ${s}.failures f SET state = 'dismissed', resolved_at = now()
      WHERE f.state = 'open' AND EXISTS (SELECT 1 FROM ${s}.failures g WHERE g.state = 'open'
        AND g.shop = f.shop AND g.job_kind = f.job_kind AND g.subject_key = f.subject_key
        AND (g.last_failed_at, g.id) > (f.last_failed_at, f.id))`);
    await runner.query(
      `CREATE UNIQUE INDEX failures_open_subject_idx ON ${s}.failures (shop, job_kind, subject_key) WHERE state = 'open'`,
    );
    await runner.query(
      `ALTER TABLE ${s}.failures DROP COLUMN occurrences, DROP COLUMN history, DROP COLUMN resolved_by`,
    );
  }
}
