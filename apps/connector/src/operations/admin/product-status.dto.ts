import type { MediaStatus } from '../../media/store/media-status.repository.js';
import type { CatalogCallRecord } from '../../product-sync/apply/catalog-call-record.js';
import type { MappingGap, PlanNote } from '../../product-sync/plan/sync-plan.js';
import type { WriteBackEntry } from '../../write-back/write-back-status.js';

/** One sku map row of the product, as operators see it. */
export interface MapRowDto {
  kind: string;
  /** Null for the product's own (simple or parent) record. */
  shopifyVariantId: string | null;
  supplierSku: string;
  parentSupplierSku: string | null;
  skuId: string | null;
  state: string;
  appliedAt: string | null;
  shopifyUpdatedAt: string | null;
  /** Attributes the last sync left out of this record (a Shopify value with no catalog equivalent). */
  gaps: MappingGap[];
  /** What the last sync says about this record (e.g. `enrichment-will-fail`). */
  notes: PlanNote[];
}

/** The product's status (`GET /admin/products/{id}`). */
export interface ProductStatusDto {
  shop: string;
  /** Shopify's numeric product id. */
  productId: string;
  mapRows: MapRowDto[];
  /** The last sync run (its record), or null when none is recorded (or pruned). */
  lastSync: {
    startedAt: string;
    finishedAt: string;
    reason: string;
    outcome: string;
    detail: string | null;
    calls: CatalogCallRecord[];
    error: { code: string; message: string } | null;
  } | null;
  /** The latest error: the last failure recorded for the product, or the last run's error. */
  lastError: {
    at: string;
    code: string;
    message: string;
    source: 'failure' | 'sync';
    failureId?: string;
    state?: string;
  } | null;
  /**
   * The catalog's view of the product's own record, read now (one interactive call): its
   * enrichment status and attribute summary; `error` when it could not be read; null without a skuId.
   */
  catalog: {
    skuId: string;
    enrichmentStatus: string | null;
    attributeSummary: Record<string, number> | null;
    error?: string;
  } | null;
  /**
   * The last media run: its notes (e.g. `replaced-foreign-gallery`), the images left out and why,
   * its counts, and when a gallery the connector had not written was last replaced; null: no run yet.
   */
  media: MediaStatus | null;
  /** Write-backs and conflicts, latest first; null until the write-back stage keeps a history. */
  writeBacks: WriteBackEntry[] | null;
}
