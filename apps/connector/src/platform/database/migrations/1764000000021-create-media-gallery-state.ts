import type { MigrationInterface, QueryRunner } from 'typeorm';
import { schemaOf } from './schema-of.js';

/**
 * The gallery the connector last wrote to each catalog record (`media`, fileIds in order): an
 * unchanged gallery is not written again, and one changed on the catalog side is noticed before
 * it is replaced. Keyed by `skuId`: a record created again starts without one.
 */
export class CreateMediaGalleryState1764000000021 implements MigrationInterface {
  name = 'CreateMediaGalleryState1764000000021';

  async up(runner: QueryRunner): Promise<void> {
    const s = schemaOf(runner);
    await runner.query(`
      CREATE TABLE ${s}.media_gallery_state (
        id bigserial PRIMARY KEY,
        shop text NOT NULL,
        sku_id text NOT NULL,
        media jsonb NOT NULL DEFAULT '[]'::jsonb,
        written_at bigint NOT NULL,
        CONSTRAINT media_gallery_state_shop_sku_unique UNIQUE (shop, sku_id)
      )`);
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query(`DROP TABLE ${schemaOf(runner)}.media_gallery_state`);
  }
}
