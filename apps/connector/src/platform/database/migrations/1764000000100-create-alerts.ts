import type { MigrationInterface, QueryRunner } from 'typeorm';
import { schemaOf } from './schema-of.js';

/**
 * Alerts (issue 42): the operators' notification targets (a signed webhook or a Slack incoming
 * webhook, for one shop or every shop; the URL and the signing secret encrypted like the shops'
 * secrets), each shop's state as the alerts last saw and sent it (the debounce: a new state is
 * pending until it has held long enough), and every delivery of a state change to a target with
 * its attempts. A removed target leaves its deliveries, under the label it had.
 */
export class CreateAlerts1764000000100 implements MigrationInterface {
  name = 'CreateAlerts1764000000100';

  async up(runner: QueryRunner): Promise<void> {
    const s = schemaOf(runner);
    await runner.query(
      `CREATE TABLE ${s}.alert_targets (
         id bigserial PRIMARY KEY,
         label text NOT NULL,
         kind text NOT NULL CHECK (kind IN ('webhook', 'slack')),
         shop text,
         url text NOT NULL,
         url_shown text NOT NULL,
         secret text,
         created_at timestamptz NOT NULL
       )`,
    );
    await runner.query(
      `CREATE TABLE ${s}.alert_shop_states (
         shop text PRIMARY KEY,
         seen_state text NOT NULL,
         seen_cause text NOT NULL,
         notified_state text NOT NULL,
         notified_at timestamptz,
         pending_state text,
         pending_since timestamptz,
         checked_at timestamptz NOT NULL
       )`,
    );
    await runner.query(
      `CREATE TABLE ${s}.alert_deliveries (
         id bigserial PRIMARY KEY,
         target_id bigint REFERENCES ${s}.alert_targets (id) ON DELETE SET NULL,
         target_label text NOT NULL,
         kind text NOT NULL,
         shop text NOT NULL,
         from_state text NOT NULL,
         to_state text NOT NULL,
         cause text NOT NULL,
         reasons jsonb NOT NULL,
         changed_at timestamptz NOT NULL,
         created_at timestamptz NOT NULL,
         state text NOT NULL DEFAULT 'pending'
           CHECK (state IN ('pending', 'delivered', 'failed', 'cancelled')),
         attempts integer NOT NULL DEFAULT 0,
         last_status integer,
         last_error text,
         last_attempt_at timestamptz,
         delivered_at timestamptz
       )`,
    );
    await runner.query(`CREATE INDEX alert_deliveries_created ON ${s}.alert_deliveries (created_at)`);
    await runner.query(
      `CREATE INDEX alert_deliveries_pending ON ${s}.alert_deliveries (id) WHERE state = 'pending'`,
    );
    await runner.query(`CREATE INDEX alert_deliveries_target ON ${s}.alert_deliveries (target_id)`);
  }

  async down(runner: QueryRunner): Promise<void> {
    const s = schemaOf(runner);
    await runner.query(`DROP TABLE ${s}.alert_deliveries`);
    await runner.query(`DROP TABLE ${s}.alert_shop_states`);
    await runner.query(`DROP TABLE ${s}.alert_targets`);
  }
}
