import type { MigrationInterface, QueryRunner } from 'typeorm';
import { schemaOf } from './schema-of.js';

/**
 * Issue 30, large products: a Shopify product over the catalog's 200 variants per parent is split
 * into several parents (one per group of `variantGroups`), so the sku map's one-product-row-per-
 * product rule gives way to one per product and group. `variant_group` holds the group's key on
 * those parents (null on the product's one own row and on variant rows), and the unique index
 * over the Shopify record takes it in.
 */
export class SkuMapVariantGroups1764000000075 implements MigrationInterface {
  name = 'SkuMapVariantGroups1764000000075';

  async up(runner: QueryRunner): Promise<void> {
    const s = schemaOf(runner);
    await runner.query(`ALTER TABLE ${s}.sku_map ADD COLUMN variant_group text`);
    await runner.query(
      `ALTER TABLE ${s}.sku_map ADD CONSTRAINT sku_map_variant_group_check
         CHECK (variant_group IS NULL OR shopify_variant_id IS NULL)`,
    );
    await runner.query(`DROP INDEX ${s}.sku_map_shopify_record_idx`);
    await runner.query(
      `CREATE UNIQUE INDEX sku_map_shopify_record_idx
         ON ${s}.sku_map (shop, shopify_product_id, (COALESCE(shopify_variant_id, 0)), (COALESCE(variant_group, '')))`,
    );
  }

  async down(runner: QueryRunner): Promise<void> {
    const s = schemaOf(runner);
    await runner.query(`DELETE FROM ${s}.sku_map WHERE variant_group IS NOT NULL`);
    await runner.query(`DROP INDEX ${s}.sku_map_shopify_record_idx`);
    await runner.query(
      `CREATE UNIQUE INDEX sku_map_shopify_record_idx
         ON ${s}.sku_map (shop, shopify_product_id, (COALESCE(shopify_variant_id, 0)))`,
    );
    await runner.query(`ALTER TABLE ${s}.sku_map DROP CONSTRAINT sku_map_variant_group_check`);
    await runner.query(`ALTER TABLE ${s}.sku_map DROP COLUMN variant_group`);
  }
}
