import type { MigrationInterface, QueryRunner } from 'typeorm';
import { schemaOf } from './schema-of.js';

/**
 * The records a poll read for a product's push work (`RecordSnapshot`), so the push does not
 * search the catalog again for them. Null on work added outside a poll: that push searches.
 */
export class EnrichmentOutboxRecords1764000000045 implements MigrationInterface {
  name = 'EnrichmentOutboxRecords1764000000045';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query(`ALTER TABLE ${schemaOf(runner)}.enrichment_outbox ADD COLUMN records jsonb`);
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query(`ALTER TABLE ${schemaOf(runner)}.enrichment_outbox DROP COLUMN records`);
  }
}
