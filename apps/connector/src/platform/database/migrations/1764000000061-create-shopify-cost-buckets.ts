import type { MigrationInterface, QueryRunner } from 'typeorm';
import { schemaOf } from './schema-of.js';

/**
 * Each shop's Admin API cost bucket as the connector's replicas see it together
 * (`SharedCostBuckets`): the points Shopify last reported less what calls since took, when.
 */
export class CreateShopifyCostBuckets1764000000061 implements MigrationInterface {
  name = 'CreateShopifyCostBuckets1764000000061';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query(`
      CREATE TABLE ${schemaOf(runner)}.shopify_cost_buckets (
        shop text PRIMARY KEY,
        available double precision NOT NULL,
        maximum double precision NOT NULL,
        restore_rate double precision NOT NULL,
        updated_ms bigint NOT NULL
      )`);
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query(`DROP TABLE ${schemaOf(runner)}.shopify_cost_buckets`);
  }
}
