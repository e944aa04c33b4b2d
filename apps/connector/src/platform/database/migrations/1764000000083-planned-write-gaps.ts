import type { MigrationInterface, QueryRunner } from 'typeorm';
import { schemaOf } from './schema-of.js';

/**
 * Planned writes carry their record's mapping gaps (issue 31): the preview counts what the
 * mapping cannot map for a shop in shadow, whose planned records are not in the sku map.
 */
export class PlannedWriteGaps1764000000083 implements MigrationInterface {
  name = 'PlannedWriteGaps1764000000083';

  async up(runner: QueryRunner): Promise<void> {
    const s = schemaOf(runner);
    await runner.query(`ALTER TABLE ${s}.planned_writes ADD COLUMN gaps jsonb NOT NULL DEFAULT '[]'::jsonb`);
  }

  async down(runner: QueryRunner): Promise<void> {
    const s = schemaOf(runner);
    await runner.query(`ALTER TABLE ${s}.planned_writes DROP COLUMN gaps`);
  }
}
