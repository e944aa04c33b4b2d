import type { MigrationInterface, QueryRunner } from 'typeorm';
import { schemaOf } from './schema-of.js';

/** What the scheduled subscription check last found for each shop, and how many it recreated. */
export class ShopSessionSubscriptions1764000000052 implements MigrationInterface {
  name = 'ShopSessionSubscriptions1764000000052';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query(`
      ALTER TABLE ${schemaOf(runner)}.shop_sessions
        ADD COLUMN subscriptions text,
        ADD COLUMN subscriptions_checked_at timestamptz,
        ADD COLUMN subscriptions_recreated integer NOT NULL DEFAULT 0`);
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query(`
      ALTER TABLE ${schemaOf(runner)}.shop_sessions
        DROP COLUMN subscriptions, DROP COLUMN subscriptions_checked_at, DROP COLUMN subscriptions_recreated`);
  }
}
