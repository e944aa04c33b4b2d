import type { MigrationInterface, QueryRunner } from 'typeorm';
import { schemaOf } from './schema-of.js';

/**
 * The media image map: one row per Shopify image (MediaImage gid) of a shop, with the content
 * hash of its bytes and the catalog `fileId` they became, so an unchanged image is never uploaded
 * again and the same bytes under two Shopify ids share one `fileId` (looked up by hash).
 */
export class CreateMediaImageMap1764000000020 implements MigrationInterface {
  name = 'CreateMediaImageMap1764000000020';

  async up(runner: QueryRunner): Promise<void> {
    const s = schemaOf(runner);
    await runner.query(`
      CREATE TABLE ${s}.media_image_map (
        id bigserial PRIMARY KEY,
        shop text NOT NULL,
        shopify_media_id text NOT NULL,
        source_url text NOT NULL,
        content_hash char(64) NOT NULL,
        file_id text NOT NULL,
        byte_size integer NOT NULL,
        format text NOT NULL,
        created_at timestamptz NOT NULL,
        updated_at timestamptz NOT NULL,
        CONSTRAINT media_image_map_shop_media_unique UNIQUE (shop, shopify_media_id)
      )`);
    await runner.query(
      `CREATE INDEX media_image_map_shop_hash_idx ON ${s}.media_image_map (shop, content_hash)`,
    );
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query(`DROP TABLE ${schemaOf(runner)}.media_image_map`);
  }
}
