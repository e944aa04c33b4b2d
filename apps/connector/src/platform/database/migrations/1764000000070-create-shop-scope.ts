import type { MigrationInterface, QueryRunner } from 'typeorm';
import { schemaOf } from './schema-of.js';

/**
 * Per shop, the product scope last applied (issue 30): a restart with another scope resyncs the
 * products entering and leaving it, and the members of each scoped collection at its last walk.
 */
export class CreateShopScope1764000000070 implements MigrationInterface {
  name = 'CreateShopScope1764000000070';

  async up(runner: QueryRunner): Promise<void> {
    const s = schemaOf(runner);
    await runner.query(
      `CREATE TABLE ${s}.shop_scope (
         shop text PRIMARY KEY,
         scope_key text NOT NULL,
         collection_members jsonb NOT NULL DEFAULT '{}'::jsonb,
         applied_at timestamptz NOT NULL
       )`,
    );
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query(`DROP TABLE ${schemaOf(runner)}.shop_scope`);
  }
}
