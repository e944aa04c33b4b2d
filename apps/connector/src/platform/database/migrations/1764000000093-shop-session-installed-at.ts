import type { MigrationInterface, QueryRunner } from 'typeorm';
import { schemaOf } from './schema-of.js';

/**
 * When the shop's current installation began (as the connector saw it: the install's callback,
 * or the first grant after an uninstall), so a late lifecycle delivery from before it is ignored;
 * and the last delivery ignored that way, for the operator.
 */
export class ShopSessionInstalledAt1764000000093 implements MigrationInterface {
  name = 'ShopSessionInstalledAt1764000000093';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query(`
      ALTER TABLE ${schemaOf(runner)}.shop_sessions
        ADD COLUMN installed_at timestamptz,
        ADD COLUMN ignored_deliveries integer NOT NULL DEFAULT 0,
        ADD COLUMN last_ignored_delivery text`);
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query(`
      ALTER TABLE ${schemaOf(runner)}.shop_sessions
        DROP COLUMN installed_at, DROP COLUMN ignored_deliveries, DROP COLUMN last_ignored_delivery`);
  }
}
