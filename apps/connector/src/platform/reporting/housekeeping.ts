/** A table the retention job prunes: the name its owner registers it under, and the owner. */
export interface PrunedTable {
  /** The registration's `name` (the key of the retention job's result; a table name, or close to it). */
  name: string;
  /** The class registering it with `RetentionRegistry` at module init. */
  owner: string;
}

/** A class purging a redacted shop's rows (`shop/redact`), and the tables it purges. */
export interface ShopDataTables {
  /** The class registering the tables with `ShopDataRegistry` at module init. */
  owner: string;
  /** Its registration's `tables`, sorted; each table belongs to one owner. */
  tables: readonly string[];
}

/** What the housekeeping registries hold once every module has started. */
export interface Housekeeping {
  pruned: readonly PrunedTable[];
  redacted: readonly ShopDataTables[];
}

/**
 * Why: the features register their tables at boot, so no call site lists them all. This does,
 * beside the flow table (`platform/queues/queue-flow.ts`, whose `replayBy` names the replay
 * handlers): `RegistrationsCheck` fails the boot when the registries hold another set, and
 * `queue-flow.spec.ts` checks each owner against the sources. Besides these, `Retention` prunes
 * the platform's resolved `failures` and every queue's succeeded jobs itself, and `ShopLifecycle`
 * purges the shop's `failures` and forgets a self-installed shop's `shops` row itself.
 */
export const HOUSEKEEPING: Housekeeping = {
  pruned: [
    { name: 'inbox', owner: 'InboxRetention' },
    { name: 'sync_records', owner: 'SyncRecordsRetention' },
    { name: 'resync_run_products', owner: 'ResyncRetention' },
    { name: 'resync_runs', owner: 'ResyncRetention' },
    { name: 'drift_reports', owner: 'DriftRetention' },
    { name: 'write_back_push', owner: 'WriteBackRetention' },
    { name: 'enrichment_poll_run', owner: 'WriteBackRetention' },
    { name: 'enrichment_outbox', owner: 'WriteBackRetention' },
    { name: 'overview_minutes', owner: 'OverviewRecorder' },
    { name: 'alert_deliveries', owner: 'AlertRegistrations' },
  ],
  redacted: [
    { owner: 'SyncPausesShopData', tables: ['sync_pauses'] },
    { owner: 'CostBucketsShopData', tables: ['shopify_cost_buckets'] },
    { owner: 'InboxShopData', tables: ['inbox'] },
    {
      owner: 'ProductSyncShopData',
      tables: [
        'mapping_gaps',
        'planned_writes',
        'product_sync_state',
        'resync_snapshots',
        'shop_modes',
        'shop_scope',
        'sku_map',
        'sync_records',
      ],
    },
    { owner: 'MediaShopData', tables: ['media_gallery_state', 'media_image_map', 'media_product_status'] },
    { owner: 'ResyncShopData', tables: ['reconcile_checkpoints', 'resync_run_products', 'resync_runs'] },
    { owner: 'DriftRetention', tables: ['drift_findings', 'drift_reports'] },
    { owner: 'AlertRegistrations', tables: ['alert_deliveries', 'alert_shop_states', 'alert_targets'] },
    {
      owner: 'WriteBackShopData',
      tables: [
        'enrichment_checkpoint',
        'enrichment_outbox',
        'enrichment_seen',
        'review_watchlist',
        'write_back_push',
        'write_back_state',
      ],
    },
  ],
};
