import type { MigrationInterface, QueryRunner } from 'typeorm';
import { schemaOf } from './schema-of.js';

/** Indexes the retention job prunes by: finished deliveries by age, resolved failures by age. */
export class RetentionIndexes1764000000031 implements MigrationInterface {
  name = 'RetentionIndexes1764000000031';

  async up(runner: QueryRunner): Promise<void> {
    const s = schemaOf(runner);
    await runner.query(
      `CREATE INDEX inbox_finished_age_idx ON ${s}.inbox (received_at) WHERE state <> 'received'`,
    );
    await runner.query(
      `CREATE INDEX failures_resolved_age_idx ON ${s}.failures (resolved_at) WHERE state <> 'open'`,
    );
  }

  async down(runner: QueryRunner): Promise<void> {
    const s = schemaOf(runner);
    await runner.query(`DROP INDEX ${s}.inbox_finished_age_idx`);
    await runner.query(`DROP INDEX ${s}.failures_resolved_age_idx`);
  }
}
