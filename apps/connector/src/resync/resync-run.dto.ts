import type { BulkAttempt } from '../clients/shopify/bulk-product-reader.js';
import type { ResyncReadMode, ResyncRun, ResyncRunState, ResyncScope } from './resync-run.entity.js';
import type { RunCounts, RunPlanCounts, RunProductPlan } from './resync-run-products.repository.js';

/** One call of a dry run's plan: what live would send (method, path, body), the record before and after. */
export interface RunPlannedCallDto {
  kind: string;
  method: string;
  path: string;
  supplierSku: string | null;
  body: Record<string, unknown> | null;
  before: Record<string, unknown> | null;
  after: Record<string, unknown> | null;
}

/** A dry run's plan (issue 31): its counts, and the products with calls, a page at a time. */
export interface ResyncRunPlanDto {
  counts: RunPlanCounts;
  products: Array<{
    productId: string;
    found: boolean;
    result: string;
    detail: string | null;
    calls: RunPlannedCallDto[];
  }>;
  /** The next page: `GET /admin/resync/{id}?planAfter=<this>`; null on the last. */
  nextPlanAfter: string | null;
}

/** A resync run as the admin API shows it (never the entity itself). */
export interface ResyncRunDto {
  id: string;
  shop: string;
  scope: ResyncScope;
  productId: string | null;
  /** A dry run: reads and plans, sends no write; its plan is in `plan`. */
  dryRun: boolean;
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
  /** A dry run's plan so far (null: not a dry run). */
  plan: ResyncRunPlanDto | null;
}

export function resyncRunDto(
  run: ResyncRun,
  counts: RunCounts,
  ratePerSecond: number,
  plan: { counts: RunPlanCounts; products: Array<RunProductPlan & { productId: string }> } | null = null,
  planPage = 100,
): ResyncRunDto {
  return {
    id: run.id,
    shop: run.shop,
    scope: run.scope,
    productId: run.productId,
    dryRun: run.dryRun,
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
    plan: plan === null ? null : planDto(plan, planPage),
  };
}

function planDto(
  plan: { counts: RunPlanCounts; products: Array<RunProductPlan & { productId: string }> },
  planPage: number,
): ResyncRunPlanDto {
  return {
    counts: plan.counts,
    products: plan.products.map((product) => ({
      productId: product.productId,
      found: product.found,
      result: product.result,
      detail: product.detail,
      calls: product.writes.map((w) => ({
        kind: w.kind,
        method: w.method,
        path: w.path,
        supplierSku: w.supplierSku,
        body: w.body,
        before: w.before,
        after: w.after,
      })),
    })),
    nextPlanAfter: plan.products.length === planPage ? (plan.products.at(-1)?.productId ?? null) : null,
  };
}
