import { CreateInbox1764000000000 } from './1764000000000-create-inbox.js';
import { CreateFailures1764000000001 } from './1764000000001-create-failures.js';
import { CreateProductSyncState1764000000002 } from './1764000000002-create-product-sync-state.js';
import { CreateCatalogRateBuckets1764000000003 } from './1764000000003-create-catalog-rate-buckets.js';
import { CreateSkuMap1764000000004 } from './1764000000004-create-sku-map.js';
import { CreateSyncRecords1764000000005 } from './1764000000005-create-sync-records.js';
import { CreateEnrichment1764000000010 } from './1764000000010-create-enrichment.js';
import { CreateMediaImageMap1764000000020 } from './1764000000020-create-media-image-map.js';
import { CreateMediaGalleryState1764000000021 } from './1764000000021-create-media-gallery-state.js';
import { CreateMediaProductStatus1764000000022 } from './1764000000022-create-media-product-status.js';
import { CreateSyncPauses1764000000030 } from './1764000000030-create-sync-pauses.js';
import { RetentionIndexes1764000000031 } from './1764000000031-retention-indexes.js';
import { CreateResync1764000000040 } from './1764000000040-create-resync.js';
import { EnrichmentOutboxRecords1764000000045 } from './1764000000045-enrichment-outbox-records.js';
import { FailuresResolvedState1764000000050 } from './1764000000050-failures-resolved-state.js';
import { CreateShopSessions1764000000051 } from './1764000000051-create-shop-sessions.js';
import { ShopSessionSubscriptions1764000000052 } from './1764000000052-shop-session-subscriptions.js';
import { CreateShops1764000000053 } from './1764000000053-create-shops.js';
import { ResyncBulkReads1764000000060 } from './1764000000060-resync-bulk-reads.js';
import { CreateShopifyCostBuckets1764000000061 } from './1764000000061-create-shopify-cost-buckets.js';
import { CreateShopScope1764000000070 } from './1764000000070-create-shop-scope.js';
import { SkuMapVariantGroups1764000000075 } from './1764000000075-sku-map-variant-groups.js';
import { CreateShopModes1764000000080 } from './1764000000080-create-shop-modes.js';
import { CreatePlannedWrites1764000000081 } from './1764000000081-create-planned-writes.js';
import { CreateDriftReports1764000000082 } from './1764000000082-create-drift-reports.js';
import { PlannedWriteGaps1764000000083 } from './1764000000083-planned-write-gaps.js';
import { CreateOverviewMinutes1764000000086 } from './1764000000086-create-overview-minutes.js';
import { ResyncDryRuns1764000000087 } from './1764000000087-resync-dry-runs.js';
import { ShopSessionInstalledAt1764000000093 } from './1764000000093-shop-session-installed-at.js';
import { SkuMapStaleParents1764000000094 } from './1764000000094-sku-map-stale-parents.js';
import { CreateMappingGaps1764000000095 } from './1764000000095-create-mapping-gaps.js';
import { CreateAlerts1764000000100 } from './1764000000100-create-alerts.js';
import { FailuresPerCause1764000000101 } from './1764000000101-failures-per-cause.js';
import { SyncRecordTitles1764000000105 } from './1764000000105-sync-record-titles.js';
import { CreateCatalogBreakers1764000000115 } from './1764000000115-create-catalog-breakers.js';
import { EnrichmentPollTriggerIndex1764000000120 } from './1764000000120-enrichment-poll-trigger-index.js';

/** Every migration, in order. The schema only ever changes through these (never synchronize). */
export const MIGRATIONS = [
  CreateInbox1764000000000,
  CreateFailures1764000000001,
  CreateProductSyncState1764000000002,
  CreateCatalogRateBuckets1764000000003,
  CreateSkuMap1764000000004,
  CreateSyncRecords1764000000005,
  CreateEnrichment1764000000010,
  CreateMediaImageMap1764000000020,
  CreateMediaGalleryState1764000000021,
  CreateMediaProductStatus1764000000022,
  CreateSyncPauses1764000000030,
  RetentionIndexes1764000000031,
  CreateResync1764000000040,
  EnrichmentOutboxRecords1764000000045,
  FailuresResolvedState1764000000050,
  CreateShopSessions1764000000051,
  ShopSessionSubscriptions1764000000052,
  CreateShops1764000000053,
  ResyncBulkReads1764000000060,
  CreateShopifyCostBuckets1764000000061,
  CreateShopScope1764000000070,
  SkuMapVariantGroups1764000000075,
  CreateShopModes1764000000080,
  CreatePlannedWrites1764000000081,
  CreateDriftReports1764000000082,
  PlannedWriteGaps1764000000083,
  CreateOverviewMinutes1764000000086,
  ResyncDryRuns1764000000087,
  ShopSessionInstalledAt1764000000093,
  SkuMapStaleParents1764000000094,
  CreateMappingGaps1764000000095,
  CreateAlerts1764000000100,
  FailuresPerCause1764000000101,
  SyncRecordTitles1764000000105,
  CreateCatalogBreakers1764000000115,
  EnrichmentPollTriggerIndex1764000000120,
];
