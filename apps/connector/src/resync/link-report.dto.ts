import type { RecordKind } from '../product-sync/plan/index.js';
import type { LinkMatch } from './link-matcher.js';

/** Lists in a report stop after this many entries (the counts are always whole). */
export const REPORT_LIST_LIMIT = 200;

/** What linking did, or (dry run) would do, for one shop. Never an entity. */
export interface LinkReportDto {
  shop: string;
  dryRun: boolean;
  match: LinkMatch;
  /** Catalog records scanned (the account's, minus those the map holds) and the searches it took. */
  catalog: { records: number; searches: number };
  shopifyProducts: number;
  /** How Shopify's products were read: one bulk query, or pages (`ShopProductKeys`). */
  shopifyRead: 'bulk' | 'pages';
  counts: { linked: number; created: number; updated: number; deleted: number; conflicts: number };
  /** Products linked to existing records (their next sync updates only what differs). */
  linked: Array<{
    productId: string;
    records: Array<{ kind: RecordKind; shopifyVariantId: string | null; skuId: string; supplierSku: string }>;
  }>;
  /** Products no record matched: their sync creates them. */
  created: string[];
  /** Products the map already holds: their sync updates them. */
  updated: string[];
  /** Products the map holds that Shopify no longer has: their sync deletes their records. */
  deleted: string[];
  conflicts: Array<{ productId: string; reason: string }>;
  /** The whole-shop resync started after linking (not on a dry run, nor when asked not to). */
  resyncRunId: string | null;
}
