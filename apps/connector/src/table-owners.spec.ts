import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { readSources } from '../test/support/import-graph.js';
import { migratedTables, type TableOwner, tableOwnerViolations } from '../test/support/table-owners.js';

const SRC = fileURLToPath(new URL('.', import.meta.url));

/** Every table of the connector and its one repository; others call that repository's named queries. */
const OWNERS: TableOwner[] = [
  { table: 'catalog_rate_buckets', owner: '#lib/catalog-client' },
  { table: 'catalog_breakers', owner: 'clients/catalog/catalog-breaker.repository.ts' },
  { table: 'inbox', owner: 'intake/inbox.repository.ts' },
  { table: 'overview_minutes', owner: 'operations/overview/overview-minutes.repository.ts' },
  { table: 'shopify_cost_buckets', owner: 'clients/shopify/shared-cost-buckets.repository.ts' },
  { table: 'failures', owner: 'platform/failures/failures.repository.ts' },
  { table: 'shop_sessions', owner: 'shops/shop-sessions.repository.ts' },
  { table: 'shops', owner: 'shops/installed-shops.repository.ts' },
  { table: 'shop_modes', owner: 'shops/shop-modes.repository.ts' },
  { table: 'planned_writes', owner: 'product-sync/planned/planned-writes.repository.ts' },
  { table: 'mapping_gaps', owner: 'product-sync/gaps/mapping-gaps.repository.ts' },
  { table: 'sync_pauses', owner: 'clients/catalog/sync-pause.repository.ts' },
  {
    table: 'sku_map',
    owner: 'product-sync/sku-map/sku-map.repository.ts',
    parts: {
      'product-sync/sku-map/sku-map-links.repository.ts':
        'links (rows entered straight as live) and the whole-map reads of drift and the reconciler',
      'product-sync/sku-map/sku-map-titles.repository.ts':
        "the web view's reads of product titles (its own records' snapshots), never a write",
    },
  },
  { table: 'product_sync_state', owner: 'product-sync/product-sync-states.repository.ts' },
  { table: 'shop_scope', owner: 'product-sync/scope/shop-scope.repository.ts' },
  { table: 'sync_records', owner: 'product-sync/sync-records.repository.ts' },
  { table: 'media_image_map', owner: 'media/store/image-map.repository.ts' },
  { table: 'media_gallery_state', owner: 'media/store/gallery-state.repository.ts' },
  { table: 'media_product_status', owner: 'media/store/media-status.repository.ts' },
  { table: 'drift_reports', owner: 'drift/store/drift-reports.repository.ts' },
  { table: 'drift_findings', owner: 'drift/store/drift-reports.repository.ts' },
  {
    table: 'resync_runs',
    owner: 'resync/resync-runs.repository.ts',
    joinedBy: {
      'resync/resync-run-products.repository.ts':
        'the products of running (or, for retention, ended) runs, joined to their run in one statement',
      'resync/resync-run-outcomes.repository.ts':
        "each listed product's outcome reads its run's state and end in the same statement",
    },
  },
  {
    table: 'resync_run_products',
    owner: 'resync/resync-run-products.repository.ts',
    parts: {
      'resync/resync-run-outcomes.repository.ts':
        "what each listed product's sync did: the run history's counts and error report (split for size)",
    },
    joinedBy: {
      'resync/resync-runs.repository.ts':
        "a page's advance recounts its run's listed products in one statement",
    },
  },
  { table: 'resync_snapshots', owner: 'product-sync/resync-snapshots.repository.ts' },
  { table: 'reconcile_checkpoints', owner: 'resync/reconcile-checkpoints.repository.ts' },
  { table: 'enrichment_checkpoint', owner: 'write-back/store/enrichment-outbox.repository.ts' },
  { table: 'enrichment_seen', owner: 'write-back/store/enrichment-outbox.repository.ts' },
  { table: 'enrichment_outbox', owner: 'write-back/store/enrichment-outbox.repository.ts' },
  { table: 'review_watchlist', owner: 'write-back/store/enrichment-outbox.repository.ts' },
  { table: 'enrichment_poll', owner: 'write-back/store/enrichment-poll-runs.repository.ts' },
  { table: 'write_back_state', owner: 'write-back/store/write-back-states.repository.ts' },
  { table: 'write_back_push', owner: 'write-back/store/write-back-states.repository.ts' },
  { table: 'alert_targets', owner: 'operations/alerts/alert-targets.repository.ts' },
  { table: 'alert_deliveries', owner: 'operations/alerts/alert-deliveries.repository.ts' },
  { table: 'alert_shop_states', owner: 'operations/alerts/alert-deliveries.repository.ts' },
];

describe('one owner per table', () => {
  const sources = readSources(SRC);

  it('gives every table the migrations create an owner', () => {
    expect(OWNERS.map((o) => o.table).sort()).toEqual(migratedTables(sources));
  });

  it('has no code outside the owner touch a table', () => {
    expect(tableOwnerViolations(sources, OWNERS)).toEqual([]);
  });

  it('catches a table read outside its owner', () => {
    const fake = new Map([
      ['a/things.repository.ts', "@Entity('things') export class Thing {} `SELECT * FROM s.things`"],
      ['b/peek.ts', '`SELECT count(*) FROM "s".things`'],
      ['c/inject.ts', 'constructor(@InjectRepository(Thing) rows: Repository<Thing>) {}'],
      ['c/c.module.ts', 'TypeOrmModule.forFeature([Thing])'],
      ['a/beside.ts', 'constructor(@InjectRepository(Thing) rows: Repository<Thing>) {}'],
      ['a/more-things.repository.ts', '`DELETE FROM s.things WHERE id = 1`'],
      ['d/built.ts', "const t = other.metadata.tablePath.replace(/others$/, 'things');"],
    ]);
    const owner = {
      table: 'things',
      owner: 'a/things.repository.ts',
      parts: { 'a/more-things.repository.ts': 'the owner, split by size' },
    };
    expect(tableOwnerViolations(fake, [owner])).toEqual([
      'things: touched by b/peek.ts, not its owner a/things.repository.ts',
      'things: touched by c/inject.ts, not its owner a/things.repository.ts',
      'things: touched by c/c.module.ts, not its owner a/things.repository.ts',
      'things: touched by a/beside.ts, not its owner a/things.repository.ts',
      'things: touched by d/built.ts, not its owner a/things.repository.ts',
    ]);
  });
});
