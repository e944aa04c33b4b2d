import type { MigrationInterface, QueryRunner } from 'typeorm';
import { schemaOf } from './schema-of.js';

/**
 * Each shop's session: how it authenticates, its state (`active`, `needs_reauth`, `uninstalled`,
 * `redacted`) and, for the grants, its current token pair, encrypted (`CONNECTOR_ENCRYPTION_KEYS`).
 * A refresh holds the row's lock, so replicas share one refresh.
 */
export class CreateShopSessions1764000000051 implements MigrationInterface {
  name = 'CreateShopSessions1764000000051';

  async up(runner: QueryRunner): Promise<void> {
    const s = schemaOf(runner);
    await runner.query(`
      CREATE TABLE ${s}.shop_sessions (
        shop text PRIMARY KEY,
        auth_kind text NOT NULL,
        state text NOT NULL DEFAULT 'active',
        state_reason text,
        access_token text,
        expires_at timestamptz,
        refresh_token text,
        refresh_token_expires_at timestamptz,
        scope text,
        refreshed_at timestamptz,
        refresh_count integer NOT NULL DEFAULT 0,
        updated_at timestamptz NOT NULL DEFAULT now()
      )`);
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query(`DROP TABLE ${schemaOf(runner)}.shop_sessions`);
  }
}
