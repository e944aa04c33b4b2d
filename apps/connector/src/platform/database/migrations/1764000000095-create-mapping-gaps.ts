import type { MigrationInterface, QueryRunner } from 'typeorm';
import { schemaOf } from './schema-of.js';

/**
 * Issue 42: the products the mapping cannot fully map, per shop, with their reasons in words
 * (`mapping_gaps`, written by every sync that plans the product): the overview counts them by
 * reason, the mapping-gaps list pages them. Filled at once from what the sku map's live rows
 * already hold (each record's gaps and its "enrichment will fail" notes, as
 * `productGapReasons` words them), so an upgraded connector shows the gaps it knows before the
 * next sync of each product; the titles come with that sync.
 */
export class CreateMappingGaps1764000000095 implements MigrationInterface {
  name = 'CreateMappingGaps1764000000095';

  async up(runner: QueryRunner): Promise<void> {
    const s = schemaOf(runner);
    await runner.query(`
      CREATE TABLE ${s}.mapping_gaps (
        shop text NOT NULL,
        product_id bigint NOT NULL,
        title text,
        reasons jsonb NOT NULL,
        blocked boolean NOT NULL DEFAULT false,
        recorded_at timestamptz NOT NULL,
        PRIMARY KEY (shop, product_id)
      )`);
    await runner.query(`
      INSERT INTO ${s}.mapping_gaps (shop, product_id, title, reasons, blocked, recorded_at)
      SELECT shop, product_id, NULL,
             jsonb_agg(jsonb_build_object('reason', reason, 'code', code, 'attribute', attribute,
                                          'records', records) ORDER BY rank, reason),
             false, now()
        FROM (
          SELECT m.shop, m.shopify_product_id AS product_id, g->>'message' AS reason,
                 min(g->>'reason') AS code, min(g->>'attribute') AS attribute,
                 count(DISTINCT m.id)::int AS records, 1 AS rank
            FROM ${s}.sku_map m CROSS JOIN LATERAL jsonb_array_elements(m.gaps) g
           WHERE m.state <> 'tombstoned'
           GROUP BY m.shop, m.shopify_product_id, g->>'message'
          UNION ALL
          SELECT m.shop, m.shopify_product_id, n->>'message', 'enrichment-will-fail',
                 min(n->>'attribute'), 1, 2
            FROM ${s}.sku_map m CROSS JOIN LATERAL jsonb_array_elements(m.notes) n
           WHERE m.state <> 'tombstoned' AND n->>'code' = 'enrichment-will-fail'
           GROUP BY m.shop, m.shopify_product_id, n->>'message'
        ) reasons
       GROUP BY shop, product_id`);
  }

  async down(runner: QueryRunner): Promise<void> {
    const s = schemaOf(runner);
    await runner.query(`DROP TABLE ${s}.mapping_gaps`);
  }
}
