import { Injectable } from '@nestjs/common';
import { MediaDryRuns } from '../product-sync/media-dry-runs.service.js';
import { ProductDryRun } from '../product-sync/product-dry-run.service.js';
import type { ResyncRun } from './resync-run.entity.js';
import { ResyncRunsRepository } from './resync-runs.repository.js';

/**
 * Why: a dry-run resync or reconciliation (issue 31) must read and plan each product exactly as
 * its sync would, and send nothing. Where a real run enqueues a page's products, a dry run plans
 * them here, one after the other, through `ProductDryRun` (the code a shop in shadow plans with:
 * no catalog write, no sku map row, sync state or planned write changes) and keeps each plan in
 * the run's product row. A retried page plans only the products it has not planned yet.
 */
@Injectable()
export class ResyncDryRun {
  constructor(
    private readonly runs: ResyncRunsRepository,
    private readonly products: ProductDryRun,
    private readonly media: MediaDryRuns,
  ) {}

  async plan(run: Pick<ResyncRun, 'id' | 'shop' | 'scope'>, productIds: readonly string[]): Promise<void> {
    const reason = run.scope === 'reconcile' ? 'reconcile' : 'resync';
    for (const productId of await this.runs.products.unplanned(run.id, productIds)) {
      const plan = await this.products.plan(run.shop, productId, reason);
      // Live enqueues the media job after each sync that found the product (`synced`).
      const media = plan.found ? await this.media.plan(run.shop, productId, plan.writes) : [];
      await this.runs.products.recordPlan(run.id, productId, {
        found: plan.found,
        result: plan.result,
        detail: plan.detail,
        writes: [...plan.writes, ...media],
      });
    }
  }
}
