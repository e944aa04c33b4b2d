import type { MigrationInterface, QueryRunner } from 'typeorm';
import { schemaOf } from './schema-of.js';

/**
 * Syncing paused by an operator, for one shop or every shop (`scope` `*`): persisted, so every
 * replica and every restart honours it until someone resumes.
 */
export class CreateSyncPauses1764000000030 implements MigrationInterface {
  name = 'CreateSyncPauses1764000000030';

  async up(runner: QueryRunner): Promise<void> {
    const s = schemaOf(runner);
    await runner.query(`
      CREATE TABLE ${s}.sync_pauses (
        scope text PRIMARY KEY,
        reason text NOT NULL,
        paused_at timestamptz NOT NULL
      )`);
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query(`DROP TABLE ${schemaOf(runner)}.sync_pauses`);
  }
}
