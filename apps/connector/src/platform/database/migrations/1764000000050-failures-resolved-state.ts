import type { MigrationInterface, QueryRunner } from 'typeorm';
import { schemaOf } from './schema-of.js';

/**
 * A failure's `resolved` state: closed because a later run of its work succeeded on its own (not
 * replayed or dismissed by an operator). Pruned by retention like the other closed states.
 */
export class FailuresResolvedState1764000000050 implements MigrationInterface {
  name = 'FailuresResolvedState1764000000050';

  async up(runner: QueryRunner): Promise<void> {
    const s = schemaOf(runner);
    await runner.query(`ALTER TABLE ${s}.failures DROP CONSTRAINT failures_state_check`);
    await runner.query(
      `ALTER TABLE ${s}.failures ADD CONSTRAINT failures_state_check
         CHECK (state IN ('open', 'replayed', 'dismissed', 'resolved'))`,
    );
  }

  async down(runner: QueryRunner): Promise<void> {
    const s = schemaOf(runner);
    await runner.query(`UPDATE ${s}.failures SET state = 'replayed' WHERE state = 'resolved'`);
    await runner.query(`ALTER TABLE ${s}.failures DROP CONSTRAINT failures_state_check`);
    await runner.query(
      `ALTER TABLE ${s}.failures ADD CONSTRAINT failures_state_check CHECK (state IN ('open', 'replayed', 'dismissed'))`,
    );
  }
}
