import type { MigrationInterface, QueryRunner } from 'typeorm';
import { schemaOf } from './schema-of.js';

/**
 * The sku map: one row per Shopify product (variant id null) and per variant, linking the Shopify
 * ids to the record's `supplierSku` and catalog `skuId`, with the last applied attribute snapshot,
 * the configuration it was built with (drift), and its state. The catalog does not deduplicate,
 * so the map owns uniqueness: one row per Shopify product/variant, one per supplierSku, one per
 * skuId. Rows are never deleted (tombstoned instead: Shopify never reuses ids).
 */
export class CreateSkuMap1764000000004 implements MigrationInterface {
  name = 'CreateSkuMap1764000000004';

  async up(runner: QueryRunner): Promise<void> {
    const s = schemaOf(runner);
    await runner.query(`
      CREATE TABLE ${s}.sku_map (
        id bigserial PRIMARY KEY,
        shop text NOT NULL,
        shopify_product_id bigint NOT NULL,
        shopify_variant_id bigint,
        kind text NOT NULL,
        supplier_sku text NOT NULL,
        parent_supplier_sku text,
        sku_id text,
        state text NOT NULL,
        snapshot jsonb NOT NULL DEFAULT '{}'::jsonb,
        configuration_dependencies jsonb,
        configuration_hash text,
        shopify_updated_at timestamptz,
        gaps jsonb NOT NULL DEFAULT '[]'::jsonb,
        notes jsonb NOT NULL DEFAULT '[]'::jsonb,
        created_at timestamptz NOT NULL,
        updated_at timestamptz NOT NULL,
        applied_at timestamptz,
        tombstoned_at timestamptz,
        CONSTRAINT sku_map_kind_check CHECK (kind IN ('simple', 'parent', 'variant')),
        CONSTRAINT sku_map_state_check
          CHECK (state IN ('pending-create', 'live', 'tombstoned', 'gone-from-catalog')),
        CONSTRAINT sku_map_variant_kind_check CHECK ((shopify_variant_id IS NULL) = (kind <> 'variant')),
        CONSTRAINT sku_map_live_has_sku_id_check CHECK (state <> 'live' OR sku_id IS NOT NULL),
        CONSTRAINT sku_map_shop_supplier_sku_unique UNIQUE (shop, supplier_sku)
      )`);
    // The product's own row has no variant id: COALESCE makes it unique too (Shopify ids are > 0).
    await runner.query(
      `CREATE UNIQUE INDEX sku_map_shopify_record_idx
         ON ${s}.sku_map (shop, shopify_product_id, (COALESCE(shopify_variant_id, 0)))`,
    );
    await runner.query(
      `CREATE UNIQUE INDEX sku_map_shop_sku_id_idx ON ${s}.sku_map (shop, sku_id) WHERE sku_id IS NOT NULL`,
    );
    await runner.query(
      `CREATE INDEX sku_map_shop_state_idx ON ${s}.sku_map (shop, state) WHERE state <> 'tombstoned'`,
    );
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query(`DROP TABLE ${schemaOf(runner)}.sku_map`);
  }
}
