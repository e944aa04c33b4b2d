import { Controller, Param, Post, Query, Res, UseGuards } from '@nestjs/common';
import type { Response } from 'express';
import { SyncEnqueuer } from '../../intake/sync-enqueuer.js';
import { ConnectorError } from '../../platform/http/connector.error.js';
import { ConnectorErrorCode } from '../../platform/http/connector-error-code.js';
import type { PlannedWrite } from '../../product-sync/planned/planned-writes.repository.js';
import { ProductDryRun } from '../../product-sync/product-dry-run.js';
import { Shops } from '../../shops/shops.js';
import { AdminTokenGuard } from './admin-token.guard.js';
import type { ProductSyncPlanDto, ProductSyncQueuedDto } from './product-sync.dto.js';

const PRODUCT_ID = /^[1-9]\d{0,19}$/;

/**
 * `POST /admin/products/{id}/sync` (issue 31): a product's sync now (queued, reason `operator`,
 * 202), or with `dryRun=true` its plan at once: each catalog call live would send with the record
 * before and after, planned by the code a shadow shop plans with, nothing sent or stored.
 */
@Controller('admin/products')
@UseGuards(AdminTokenGuard)
export class AdminProductSyncController {
  constructor(
    private readonly shops: Shops,
    private readonly syncs: SyncEnqueuer,
    private readonly dryRun: ProductDryRun,
  ) {}

  @Post(':id/sync')
  async sync(
    @Param('id') id: string,
    @Query() query: Record<string, unknown>,
    @Res({ passthrough: true }) res: Response,
  ): Promise<ProductSyncPlanDto | ProductSyncQueuedDto> {
    const unknown = Object.keys(query).filter((name) => name !== 'shop' && name !== 'dryRun');
    if (unknown.length > 0)
      throw invalid(unknown[0] as string, `Unknown query parameter ${unknown.join(', ')}.`);
    if (!PRODUCT_ID.test(id)) throw invalid('id', 'id must be a Shopify product id (decimal digits).');
    const dryRun = query.dryRun;
    if (dryRun !== undefined && dryRun !== 'true' && dryRun !== 'false')
      throw invalid('dryRun', 'dryRun must be true or false.');
    const shop = this.shopOf(query.shop);
    if (dryRun === 'true') {
      const plan = await this.dryRun.plan(shop, id, 'operator');
      res.status(200);
      return {
        shop,
        productId: id,
        dryRun: true,
        found: plan.found,
        result: plan.result,
        detail: plan.detail,
        counts: callCounts(plan.writes),
        calls: plan.writes.map((write) => ({ ...write })),
        events: plan.events,
      };
    }
    await this.syncs.enqueue({ shop, productId: id, reason: 'operator' });
    res.status(202);
    return {
      shop,
      productId: id,
      dryRun: false,
      queued: true,
      reason: 'operator',
      status: `/admin/products/${id}?shop=${encodeURIComponent(shop)}`,
    };
  }

  /** The named shop, or the only one when the connector serves one. */
  private shopOf(value: unknown): string {
    if (value === undefined && this.shops.all.length === 1)
      return (this.shops.all[0] as { domain: string }).domain;
    const shop = typeof value === 'string' ? this.shops.find(value) : undefined;
    if (!shop) throw invalid('shop', 'shop must be a shop this connector serves.');
    return shop.domain;
  }
}

/** Creates, patches and deletes among planned calls (by HTTP method). */
export function callCounts(writes: readonly Pick<PlannedWrite, 'method'>[]): ProductSyncPlanDto['counts'] {
  const count = (method: string) => writes.filter((write) => write.method === method).length;
  return { creates: count('POST'), patches: count('PATCH'), deletes: count('DELETE'), total: writes.length };
}

function invalid(parameter: string, message: string): ConnectorError {
  return new ConnectorError(ConnectorErrorCode.BAD_REQUEST, message, { parameter });
}
