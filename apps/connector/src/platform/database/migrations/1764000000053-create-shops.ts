import type { MigrationInterface, QueryRunner } from 'typeorm';
import { schemaOf } from './schema-of.js';

/**
 * Shops that installed the app themselves (issue 28): the connector serves `CONNECTOR_SHOPS`
 * plus these rows. Each keeps the catalog API key the operator set for it (encrypted like the
 * tokens) and its own mapping file, if any (else `CONNECTOR_DEFAULT_MAPPING_FILE`).
 */
export class CreateShops1764000000053 implements MigrationInterface {
  name = 'CreateShops1764000000053';

  async up(runner: QueryRunner): Promise<void> {
    const s = schemaOf(runner);
    await runner.query(
      `CREATE TABLE ${s}.shops (
         shop text PRIMARY KEY,
         catalog_api_key text,
         mapping_file text,
         installed_at timestamptz NOT NULL,
         updated_at timestamptz NOT NULL
       )`,
    );
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query(`DROP TABLE ${schemaOf(runner)}.shops`);
  }
}
