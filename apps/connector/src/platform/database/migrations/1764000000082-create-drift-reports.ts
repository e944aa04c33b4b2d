import type { MigrationInterface, QueryRunner } from 'typeorm';
import { schemaOf } from './schema-of.js';

/**
 * Drift reports (issue 32): per shop, each report's counts and how it compares with the shop's
 * previous one, and its findings, each with its repair once an operator chose it.
 */
export class CreateDriftReports1764000000082 implements MigrationInterface {
  name = 'CreateDriftReports1764000000082';

  async up(runner: QueryRunner): Promise<void> {
    const s = schemaOf(runner);
    await runner.query(
      `CREATE TABLE ${s}.drift_reports (
         id bigserial PRIMARY KEY,
         shop text NOT NULL,
         created_at timestamptz NOT NULL,
         catalog_searches integer NOT NULL,
         catalog_records integer NOT NULL,
         counts jsonb NOT NULL,
         previous_id bigint,
         resolved jsonb NOT NULL DEFAULT '[]'::jsonb
       )`,
    );
    await runner.query(
      `CREATE INDEX drift_reports_shop_created ON ${s}.drift_reports (shop, created_at DESC)`,
    );
    await runner.query(
      `CREATE TABLE ${s}.drift_findings (
         id bigserial PRIMARY KEY,
         report_id bigint NOT NULL REFERENCES ${s}.drift_reports (id) ON DELETE CASCADE,
         shop text NOT NULL,
         key text NOT NULL,
         kind text NOT NULL,
         status text NOT NULL,
         finding jsonb NOT NULL,
         repaired_at timestamptz,
         repair_outcome text
       )`,
    );
    await runner.query(`CREATE INDEX drift_findings_report ON ${s}.drift_findings (report_id, kind)`);
  }

  async down(runner: QueryRunner): Promise<void> {
    const s = schemaOf(runner);
    await runner.query(`DROP TABLE ${s}.drift_findings`);
    await runner.query(`DROP TABLE ${s}.drift_reports`);
  }
}
