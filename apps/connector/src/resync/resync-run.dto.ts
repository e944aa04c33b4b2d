import { ApiProperty, ApiSchema } from '@nestjs/swagger';
import type { BulkAttempt } from '../clients/shopify/bulk-product.reader.js';
import type { ResyncReadMode, ResyncRun, ResyncRunState, ResyncScope } from './resync-run.entity.js';
import type { RunCounts, RunPlanCounts, RunProductPlan } from './resync-run-products.repository.js';

const integer = (description?: string) =>
  ApiProperty({ type: 'integer', ...(description ? { description } : {}) });
const nullableObject = () => ApiProperty({ type: Object, nullable: true });

/** One call of a dry run's plan: what live would send (method, path, body), the record before and after. */
@ApiSchema({ name: 'ResyncPlannedCall' })
export class RunPlannedCallDto {
  @ApiProperty() kind!: string;
  @ApiProperty() method!: string;
  @ApiProperty() path!: string;
  @ApiProperty({ type: 'string', nullable: true }) supplierSku!: string | null;
  @nullableObject() body!: Record<string, unknown> | null;
  @nullableObject() before!: Record<string, unknown> | null;
  @nullableObject() after!: Record<string, unknown> | null;
}

/** Why: a dry run's counts over the whole plan (not only the page shown). */
@ApiSchema({ name: 'ResyncPlanCounts' })
export class RunPlanCountsDto implements RunPlanCounts {
  @integer() products!: number;
  @integer() changed!: number;
  @integer('Catalog record creates (POSTs but image uploads).') creates!: number;
  @integer('Image uploads the media job would make (`uploadImage`).') uploads!: number;
  @integer() patches!: number;
  @integer() deletes!: number;
  @integer() total!: number;
}

/** Why: one product of a dry run's plan, with its calls. */
@ApiSchema({ name: 'ResyncPlanProduct' })
export class RunPlanProductDto {
  @ApiProperty() productId!: string;
  @ApiProperty() found!: boolean;
  @ApiProperty() result!: string;
  @ApiProperty({ type: 'string', nullable: true }) detail!: string | null;
  @ApiProperty({ type: [RunPlannedCallDto] }) calls!: RunPlannedCallDto[];
}

/** A dry run's plan (issue 31): its counts, and the products with calls, a page at a time. */
@ApiSchema({ name: 'ResyncRunPlan' })
export class ResyncRunPlanDto {
  @ApiProperty({ type: RunPlanCountsDto }) counts!: RunPlanCounts;
  @ApiProperty({ type: [RunPlanProductDto] }) products!: RunPlanProductDto[];
  @ApiProperty({
    type: 'string',
    nullable: true,
    description: 'The next page: `GET /admin/resync/{id}?planAfter=<this>`; null on the last.',
  })
  nextPlanAfter!: string | null;
}

/** Why: one bulk operation of a run and how it ended. */
@ApiSchema({ name: 'ResyncBulkAttempt' })
export class BulkAttemptDto implements BulkAttempt {
  @ApiProperty({ type: 'string', nullable: true }) operationId!: string | null;
  @ApiProperty() outcome!: string;
}

/** A resync run as the admin API shows it (never the entity itself). */
@ApiSchema({ name: 'ResyncRun' })
export class ResyncRunDto {
  @ApiProperty({ pattern: '^[1-9][0-9]*$' }) id!: string;
  @ApiProperty() shop!: string;
  @ApiProperty({ enum: ['product', 'shop', 'reconcile'] }) scope!: ResyncScope;
  @ApiProperty({ type: 'string', nullable: true }) productId!: string | null;
  @ApiProperty({ description: 'A dry run: reads and plans, sends no write; its plan is in `plan`.' })
  dryRun!: boolean;
  @ApiProperty({ enum: ['running', 'done', 'cancelled', 'failed'] }) state!: ResyncRunState;
  @integer('Shopify pages listed so far (whole-shop runs).') pages!: number;
  @ApiProperty({ description: 'True once every product of the shop was listed: `remaining` is then exact.' })
  walkDone!: boolean;
  @ApiProperty({
    enum: ['pages', 'bulk', 'bulk-fallback'],
    nullable: true,
    description: 'Pages, one bulk query, or pages after a bulk query failed twice; null until decided.',
  })
  readMode!: ResyncReadMode | null;
  @ApiProperty({ type: [BulkAttemptDto], description: "The run's bulk operations and how each ended." })
  bulkAttempts!: BulkAttempt[];
  @integer() listed!: number;
  @integer() done!: number;
  @integer() failed!: number;
  @integer('Listed products neither synced nor failed yet.') remaining!: number;
  @ApiProperty({
    type: 'number',
    nullable: true,
    description: 'Catalog calls per synced product so far (their sync records); null before the first.',
  })
  callsPerProduct!: number | null;
  /**
   * Seconds left at the catalog budget (`CONNECTOR_CATALOG_RATE_PER_SECOND`): remaining products
   * times the calls per product seen so far (at least one): a lower bound while the walk goes
   * on (more products to list); null once the run ended.
   */
  @ApiProperty({
    type: 'integer',
    nullable: true,
    description:
      'Seconds left at the catalog budget: a lower bound while the walk goes on; null once the run ended.',
  })
  etaSeconds!: number | null;
  @ApiProperty({ type: 'string', nullable: true }) error!: string | null;
  @ApiProperty({ format: 'date-time' }) createdAt!: string;
  @ApiProperty({ type: 'string', format: 'date-time', nullable: true }) finishedAt!: string | null;
  @ApiProperty({
    type: ResyncRunPlanDto,
    nullable: true,
    description: "A dry run's plan so far (null: not a dry run).",
  })
  plan!: ResyncRunPlanDto | null;
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
