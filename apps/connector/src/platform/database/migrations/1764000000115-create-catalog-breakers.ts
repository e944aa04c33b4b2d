import type { MigrationInterface, QueryRunner } from 'typeorm';
import { schemaOf } from './schema-of.js';

/**
 * Each catalog account's breaker as every replica sees it (`SharedBreakers`): open (why, when the
 * next probe may go, the cool-down, which replica holds the probe until when) or closed, and a
 * generation each change bumps. Keyed like `catalog_rate_buckets` by the account
 * (`<URL>#<key fingerprint>`), never a shop: shops on one key share its breaker.
 */
export class CreateCatalogBreakers1764000000115 implements MigrationInterface {
  name = 'CreateCatalogBreakers1764000000115';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query(`
      CREATE TABLE ${schemaOf(runner)}.catalog_breakers (
        account text PRIMARY KEY,
        state text NOT NULL CHECK (state IN ('open', 'closed')),
        reason text CHECK (reason IN ('auth', 'unavailable')),
        cooldown_ms double precision NOT NULL DEFAULT 0,
        retry_at_ms double precision,
        probe_until_ms double precision NOT NULL DEFAULT 0,
        generation bigint NOT NULL DEFAULT 1,
        updated_at timestamptz NOT NULL DEFAULT now(),
        CHECK (state = 'closed' OR (reason IS NOT NULL AND retry_at_ms IS NOT NULL))
      )`);
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query(`DROP TABLE ${schemaOf(runner)}.catalog_breakers`);
  }
}
