import type { MigrationInterface, QueryRunner } from 'typeorm';
import { schemaOf } from './schema-of.js';

/**
 * The writes a shop in `shadow` would have sent (issue 31), per product: the latest plan of each
 * product replaces its previous one, so a preview counts each write once.
 */
export class CreatePlannedWrites1764000000081 implements MigrationInterface {
  name = 'CreatePlannedWrites1764000000081';

  async up(runner: QueryRunner): Promise<void> {
    const s = schemaOf(runner);
    await runner.query(
      `CREATE TABLE ${s}.planned_writes (
         id bigserial PRIMARY KEY,
         shop text NOT NULL,
         product_id text NOT NULL,
         source text NOT NULL,
         seq integer NOT NULL,
         kind text NOT NULL,
         method text NOT NULL,
         path text NOT NULL,
         supplier_sku text,
         body jsonb,
         before jsonb,
         after jsonb,
         planned_at timestamptz NOT NULL
       )`,
    );
    await runner.query(
      `CREATE INDEX planned_writes_product ON ${s}.planned_writes (shop, product_id, source)`,
    );
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query(`DROP TABLE ${schemaOf(runner)}.planned_writes`);
  }
}
