import type { MigrationInterface, QueryRunner } from 'typeorm';
import { schemaOf } from './schema-of.js';

/**
 * The write-back's tables. The poll's checkpoints, the content hashes it has seen, its outbox
 * (push work per Shopify product) and the review watchlist are written together, in one
 * transaction per poll. The push states (one row per owner, attribute and target, with the
 * intent recorded before each write) make the write-back exactly once; the push history
 * records every push, retraction and conflict; poll runs answer the admin API.
 */
export class CreateEnrichment1764000000010 implements MigrationInterface {
  name = 'CreateEnrichment1764000000010';

  async up(runner: QueryRunner): Promise<void> {
    const s = schemaOf(runner);
    await runner.query(`
      CREATE TABLE ${s}.enrichment_checkpoint (
        shop text NOT NULL,
        field text NOT NULL,
        checkpoint bigint,
        updated_at timestamptz NOT NULL,
        PRIMARY KEY (shop, field)
      )`);
    await runner.query(`
      CREATE TABLE ${s}.enrichment_seen (
        shop text NOT NULL,
        sku_id text NOT NULL,
        content_hash text NOT NULL,
        seen_at timestamptz NOT NULL,
        PRIMARY KEY (shop, sku_id)
      )`);
    await runner.query(`
      CREATE TABLE ${s}.enrichment_outbox (
        id bigserial PRIMARY KEY,
        shop text NOT NULL,
        shopify_product_id bigint NOT NULL,
        poll_id text,
        found_at timestamptz NOT NULL,
        state text NOT NULL DEFAULT 'pending',
        done_at timestamptz,
        CONSTRAINT enrichment_outbox_state_check CHECK (state IN ('pending', 'done'))
      )`);
    await runner.query(
      `CREATE INDEX enrichment_outbox_pending_idx ON ${s}.enrichment_outbox (shop, shopify_product_id)
         WHERE state = 'pending'`,
    );
    await runner.query(`CREATE INDEX enrichment_outbox_poll_idx ON ${s}.enrichment_outbox (poll_id)`);
    await runner.query(`
      CREATE TABLE ${s}.review_watchlist (
        shop text NOT NULL,
        sku_id text NOT NULL,
        shopify_product_id bigint NOT NULL,
        attributes jsonb NOT NULL,
        added_at timestamptz NOT NULL,
        last_checked_at timestamptz NOT NULL,
        PRIMARY KEY (shop, sku_id)
      )`);
    await runner.query(`
      CREATE TABLE ${s}.write_back_state (
        id bigserial PRIMARY KEY,
        shop text NOT NULL,
        product_id bigint NOT NULL,
        owner_id text NOT NULL,
        attribute text NOT NULL,
        target_key text NOT NULL,
        status text NOT NULL,
        value_hash text,
        restore jsonb,
        tags jsonb,
        removed_tags jsonb,
        intent jsonb,
        updated_at timestamptz NOT NULL,
        CONSTRAINT write_back_state_status_check CHECK (status IN ('pushed', 'retracted', 'merchant-owned', 'none')),
        CONSTRAINT write_back_state_unique UNIQUE (shop, owner_id, attribute, target_key)
      )`);
    await runner.query(
      `CREATE INDEX write_back_state_product_idx ON ${s}.write_back_state (shop, product_id)`,
    );
    await runner.query(`
      CREATE TABLE ${s}.write_back_push (
        id bigserial PRIMARY KEY,
        shop text NOT NULL,
        product_id bigint NOT NULL,
        owner_id text NOT NULL,
        attribute text NOT NULL,
        target_key text NOT NULL,
        purpose text NOT NULL,
        value_hash text,
        result text NOT NULL,
        errors jsonb NOT NULL DEFAULT '[]'::jsonb,
        job_id text,
        at timestamptz NOT NULL,
        CONSTRAINT write_back_push_purpose_check CHECK (purpose IN ('push', 'retract', 'conflict', 'settle')),
        CONSTRAINT write_back_push_result_check
          CHECK (result IN ('ok', 'rejected', 'stale', 'unknown', 'throttled', 'conflict', 'unfit', 'landed'))
      )`);
    await runner.query(
      `CREATE INDEX write_back_push_product_idx ON ${s}.write_back_push (shop, product_id, id)`,
    );
    await runner.query(`
      CREATE TABLE ${s}.enrichment_poll (
        id text PRIMARY KEY,
        trigger text NOT NULL,
        requested_at timestamptz NOT NULL,
        started_at timestamptz,
        finished_at timestamptz,
        counts jsonb NOT NULL DEFAULT '{}'::jsonb,
        error text
      )`);
  }

  async down(runner: QueryRunner): Promise<void> {
    const s = schemaOf(runner);
    for (const table of [
      'enrichment_poll',
      'write_back_push',
      'write_back_state',
      'review_watchlist',
      'enrichment_outbox',
      'enrichment_seen',
      'enrichment_checkpoint',
    ])
      await runner.query(`DROP TABLE ${s}.${table}`);
  }
}
