import type { MigrationInterface, QueryRunner } from 'typeorm';
import { schemaOf } from './schema-of.js';

/**
 * The media status of each product: its last media run's notes (a foreign gallery replaced,
 * inheritance broken, a gallery truncated, records not created yet), the images that failed and
 * why, and when the connector last replaced a gallery it had not written.
 */
export class CreateMediaProductStatus1764000000022 implements MigrationInterface {
  name = 'CreateMediaProductStatus1764000000022';

  async up(runner: QueryRunner): Promise<void> {
    const s = schemaOf(runner);
    await runner.query(`
      CREATE TABLE ${s}.media_product_status (
        id bigserial PRIMARY KEY,
        shop text NOT NULL,
        shopify_product_id bigint NOT NULL,
        notes jsonb NOT NULL DEFAULT '[]'::jsonb,
        image_failures jsonb NOT NULL DEFAULT '[]'::jsonb,
        images integer NOT NULL,
        uploads integer NOT NULL,
        writes integer NOT NULL,
        last_run_at timestamptz NOT NULL,
        foreign_gallery_replaced_at timestamptz,
        CONSTRAINT media_product_status_shop_product_unique UNIQUE (shop, shopify_product_id)
      )`);
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query(`DROP TABLE ${schemaOf(runner)}.media_product_status`);
  }
}
