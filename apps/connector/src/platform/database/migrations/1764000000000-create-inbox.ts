import type { MigrationInterface, QueryRunner } from 'typeorm';
import { schemaOf } from './schema-of.js';

/** The webhook inbox: every accepted delivery, unique per shop on its webhook id. */
export class CreateInbox1764000000000 implements MigrationInterface {
  name = 'CreateInbox1764000000000';

  async up(runner: QueryRunner): Promise<void> {
    const s = schemaOf(runner);
    await runner.query(`
      CREATE TABLE ${s}.inbox (
        id bigserial PRIMARY KEY,
        shop text NOT NULL,
        webhook_id text NOT NULL,
        event_id text,
        triggered_at text,
        topic text NOT NULL,
        api_version text,
        product_id bigint,
        payload_updated_at timestamptz,
        body bytea,
        body_bytes integer NOT NULL,
        body_truncated boolean NOT NULL DEFAULT false,
        state text NOT NULL,
        outcome text,
        received_at timestamptz NOT NULL,
        enqueued_at timestamptz,
        processed_at timestamptz,
        CONSTRAINT inbox_state_check CHECK (state IN ('received', 'done', 'rejected')),
        CONSTRAINT inbox_shop_webhook_unique UNIQUE (shop, webhook_id)
      )`);
    await runner.query(
      `CREATE INDEX inbox_pending_product_idx ON ${s}.inbox (shop, product_id) WHERE state = 'received'`,
    );
    await runner.query(
      `CREATE INDEX inbox_pending_age_idx ON ${s}.inbox (received_at) WHERE state = 'received'`,
    );
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query(`DROP TABLE ${schemaOf(runner)}.inbox`);
  }
}
