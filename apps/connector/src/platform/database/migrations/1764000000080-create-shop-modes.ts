import type { MigrationInterface, QueryRunner } from 'typeorm';
import { schemaOf } from './schema-of.js';

/**
 * Per shop, its mode (issue 31): `live` sends its writes, `shadow` records them as planned
 * writes. A shop without a row is `live` (every shop served before this migration).
 */
export class CreateShopModes1764000000080 implements MigrationInterface {
  name = 'CreateShopModes1764000000080';

  async up(runner: QueryRunner): Promise<void> {
    const s = schemaOf(runner);
    await runner.query(
      `CREATE TABLE ${s}.shop_modes (
         shop text PRIMARY KEY,
         mode text NOT NULL CHECK (mode IN ('live', 'shadow')),
         updated_at timestamptz NOT NULL
       )`,
    );
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query(`DROP TABLE ${schemaOf(runner)}.shop_modes`);
  }
}
