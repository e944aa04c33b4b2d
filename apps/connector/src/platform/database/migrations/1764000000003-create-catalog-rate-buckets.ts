import type { MigrationInterface, QueryRunner } from 'typeorm';
import { schemaOf } from './schema-of.js';

/**
 * The catalog client's shared rate budget (`PostgresRateLimiter`), one row per API-key
 * fingerprint; the same shape the library creates when missing. Keyed by the key, not the shop:
 * shops on one catalog account share one budget.
 */
export class CreateCatalogRateBuckets1764000000003 implements MigrationInterface {
  name = 'CreateCatalogRateBuckets1764000000003';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query(`
      CREATE TABLE IF NOT EXISTS ${schemaOf(runner)}.catalog_rate_buckets (
        bucket text PRIMARY KEY,
        tat double precision NOT NULL DEFAULT 0,
        paused_until double precision NOT NULL DEFAULT 0,
        updated_at timestamptz NOT NULL DEFAULT now()
      )`);
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query(`DROP TABLE ${schemaOf(runner)}.catalog_rate_buckets`);
  }
}
