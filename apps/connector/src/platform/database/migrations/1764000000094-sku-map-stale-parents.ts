import type { MigrationInterface, QueryRunner } from 'typeorm';
import { schemaOf } from './schema-of.js';

/**
 * Issue 40: before the change that makes a shape change remove the parents it no longer needs
 * (`replacedParents`, `removeRow`), such parents were tombstoned. A tombstoned row still holds its
 * place in the map's unique key (shop, product, variant, group), so that parent could never be
 * created again: a split product back to one parent, a group that comes back, or the kept parent
 * of a split product made simple losing its group all failed. This removes those rows, and only
 * them: the rows the new code would have removed instead of tombstoning.
 *
 * Why it is safe. A tombstone has two causes: a shape change (a stored parent no group owns any
 * more) and a product's deletion (`planDeletion`: `products/delete`, or a read that found it gone).
 * Only the second must stay (Shopify never reuses ids: its rows keep the product deleted; its
 * supplierSkus and skuIds stay used for links and drift claims). A row is removed when all hold:
 * - it is tombstoned and the product's own or a group's parent (no variant id: kind `parent`, or
 *   `simple` for a simple product's row replaced when it grew past 200 variants and was split);
 * - its product still has a row in the same shop that is not tombstoned (the Shopify product
 *   lives on; a deleted product's rows are all tombstoned);
 * - the product is not tombstoned in `product_sync_state` (deleted for good);
 * - the product has a variant row that is not tombstoned, or one tombstoned after this row. A
 *   deletion deletes (and tombstones) every variant before any parent, in one run, and nothing is
 *   created for a deleted product afterwards; so a deletion that failed between two parents (one
 *   parent tombstoned, another still live) is kept whole for its retry, while a parent replaced
 *   by a shape change had live variants under the new shape, later tombstoned only if the product
 *   then became simple.
 * Rows of other shops are never looked at together (a product id is per shop). The catalog
 * record of a tombstoned row was deleted (or never existed), so nothing in the catalog changes;
 * its supplierSku and skuId become free, as after the new code's removal.
 */
export class SkuMapStaleParents1764000000094 implements MigrationInterface {
  name = 'SkuMapStaleParents1764000000094';

  async up(runner: QueryRunner): Promise<void> {
    const s = schemaOf(runner);
    await runner.query(`
      DELETE FROM ${s}.sku_map AS t
       WHERE t.state = 'tombstoned' AND t.shopify_variant_id IS NULL
         AND EXISTS (
           SELECT 1 FROM ${s}.sku_map o
            WHERE o.shop = t.shop AND o.shopify_product_id = t.shopify_product_id
              AND o.state <> 'tombstoned')
         AND NOT EXISTS (
           SELECT 1 FROM ${s}.product_sync_state p
            WHERE p.shop = t.shop AND p.product_id = t.shopify_product_id
              AND p.tombstoned_at IS NOT NULL)
         AND EXISTS (
           SELECT 1 FROM ${s}.sku_map v
            WHERE v.shop = t.shop AND v.shopify_product_id = t.shopify_product_id
              AND v.shopify_variant_id IS NOT NULL
              AND (v.state <> 'tombstoned' OR v.tombstoned_at > t.tombstoned_at))`);
  }

  /** The removed rows are not restored: they only ever blocked the parents they named. */
  async down(): Promise<void> {}
}
