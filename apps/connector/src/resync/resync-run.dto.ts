import type { BulkAttempt } from '../clients/shopify/bulk-product-reader.js';
import type { ResyncReadMode, ResyncRun, ResyncRunState, ResyncScope } from './resync-run.entity.js';
import type { RunCounts } from './resync-runs.repository.js';

/** A resync run as the admin API shows it (never the entity itself). */
export interface ResyncRunDto {
  id: string;
  shop: string;
  scope: ResyncScope;
  productId: string | null;
  state: ResyncRunState;
  /** Shopify pages listed so far (whole-shop runs). */
  pages: number;
  /** True once every product of the shop was listed: `remaining` is then exact. */
  walkDone: boolean;
  /** Pages, one bulk query, or pages after a bulk query failed twice; null until decided. */
  readMode: ResyncReadMode | null;
  /** The run's bulk operations and how each ended. */
  bulkAttempts: BulkAttempt[];
  listed: number;
  done: number;
  failed: number;
  /** Listed products neither synced nor failed yet. */
  remaining: number;
  /** Catalog calls per synced product so far (their sync records); null before the first. */
  callsPerProduct: number | null;
  /**
   * Seconds left at the catalog budget (`CONNECTOR_CATALOG_RATE_PER_SECOND`): remaining products
   * times the calls per product seen so far (at least one): a lower bound while the walk goes
   * on (more products to list); null once the run ended.
   */
  etaSeconds: number | null;
  error: string | null;
  createdAt: string;
  finishedAt: string | null;
}

export function resyncRunDto(run: ResyncRun, counts: RunCounts, ratePerSecond: number): ResyncRunDto {
  return {
    id: run.id,
    shop: run.shop,
    scope: run.scope,
    productId: run.productId,
    state: run.state,
    pages: run.pages,
    walkDone: run.walkDone,
    readMode: run.readMode,
    bulkAttempts: run.bulkAttempts,
    listed: counts.listed,
    done: counts.done,
    failed: counts.failed,
    remaining: counts.waiting,
    callsPerProduct: counts.callsPerProduct === null ? null : Math.round(counts.callsPerProduct * 100) / 100,
    etaSeconds:
      run.state === 'running'
        ? Math.ceil((counts.waiting * Math.max(1, counts.callsPerProduct ?? 1)) / ratePerSecond)
        : null,
    error: run.error,
    createdAt: run.createdAt.toISOString(),
    finishedAt: run.finishedAt?.toISOString() ?? null,
  };
}
