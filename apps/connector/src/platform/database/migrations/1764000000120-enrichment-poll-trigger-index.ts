import type { MigrationInterface, QueryRunner } from 'typeorm';
import { schemaOf } from './schema-of.js';

/**
 * Each finished poll by trigger and end (`EnrichmentPollRuns.lastEarly`): the early polls' duty
 * bound reads the last early poll of any replica after every poll, so it is an index look-up, not
 * a scan of the kept polls.
 */
export class EnrichmentPollTriggerIndex1764000000120 implements MigrationInterface {
  name = 'EnrichmentPollTriggerIndex1764000000120';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query(
      `CREATE INDEX enrichment_poll_trigger_finished_idx ON ${schemaOf(runner)}.enrichment_poll (trigger, finished_at)`,
    );
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query(`DROP INDEX ${schemaOf(runner)}.enrichment_poll_trigger_finished_idx`);
  }
}
