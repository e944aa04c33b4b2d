import type { MigrationInterface, QueryRunner } from 'typeorm';
import { schemaOf } from './schema-of.js';

/** Per Shopify product: the last applied `updatedAt` (stale payloads) and the tombstone. */
export class CreateProductSyncState1764000000002 implements MigrationInterface {
  name = 'CreateProductSyncState1764000000002';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query(`
      CREATE TABLE ${schemaOf(runner)}.product_sync_state (
        shop text NOT NULL,
        product_id bigint NOT NULL,
        last_applied_updated_at timestamptz,
        last_synced_at timestamptz,
        runs integer NOT NULL DEFAULT 0,
        tombstoned_at timestamptz,
        PRIMARY KEY (shop, product_id)
      )`);
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query(`DROP TABLE ${schemaOf(runner)}.product_sync_state`);
  }
}
