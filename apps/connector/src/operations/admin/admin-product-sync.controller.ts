import { Controller, Param, Post, Query, Res, UseGuards } from '@nestjs/common';
import {
  ApiAcceptedResponse,
  ApiBearerAuth,
  ApiOkResponse,
  ApiOperation,
  ApiParam,
  ApiTags,
} from '@nestjs/swagger';
import type { Response } from 'express';
import { SyncEnqueuer } from '../../intake/sync-enqueuer.service.js';
import { ConnectorError } from '../../platform/http/connector.error.js';
import { ApiConnectorErrors } from '../../platform/http/connector-error.dto.js';
import { ConnectorErrorCode } from '../../platform/http/connector-error-code.js';
import type { PlannedWrite } from '../../product-sync/planned/planned-writes.repository.js';
import { ProductDryRun } from '../../product-sync/product-dry-run.service.js';
import { Shops } from '../../shops/shops.js';
import { AdminTokenGuard } from './admin-token.guard.js';
import { ProductSyncPlanDto, ProductSyncQuery, ProductSyncQueuedDto } from './product-sync.dto.js';

const PRODUCT_ID = /^[1-9]\d{0,19}$/;

/**
 * `POST /admin/products/{id}/sync` (issue 31): a product's sync now (queued, reason `operator`,
 * 202), or with `dryRun=true` its plan at once: each catalog call live would send with the record
 * before and after, planned by the code a shadow shop plans with, nothing sent or stored.
 */
@ApiTags('admin')
@ApiBearerAuth('adminToken')
@ApiConnectorErrors(401, 429, 503)
@Controller('admin/products')
@UseGuards(AdminTokenGuard)
export class AdminProductSyncController {
  constructor(
    private readonly shops: Shops,
    private readonly syncs: SyncEnqueuer,
    private readonly dryRun: ProductDryRun,
  ) {}

  @Post(':id/sync')
  @ApiOperation({
    operationId: 'syncProduct',
    summary:
      "A product's sync now (queued, reason `operator`: 202), or with `dryRun=true` its plan at once (200), nothing sent",
    description:
      'Without dryRun (or `dryRun=false`): the sync is queued at once, no debounce; the answer is 202 with where its outcome shows. `dryRun=true`: the product is read from Shopify and planned by the code a shop in shadow plans with; the answer lists each catalog call (method, path, body) with the record before and after; nothing is sent, no sku map row or planned write changes. Both first check that the mapped records of the product exist in the catalog (one `skuId` search per 500 records): a record deleted there behind the connector is planned as a create, which the queued sync sends. `shop` may be left out when the connector serves one shop. 400: a bad id or parameter, an unknown shop.',
  })
  @ApiParam({ name: 'id', schema: { type: 'string', pattern: '^[1-9][0-9]{0,19}$' } })
  @ApiOkResponse({ type: ProductSyncPlanDto, description: 'The plan (`dryRun=true`)' })
  @ApiAcceptedResponse({ type: ProductSyncQueuedDto, description: 'Queued' })
  @ApiConnectorErrors(400)
  async sync(
    @Param('id') id: string,
    @Query() query: ProductSyncQuery,
    @Res({ passthrough: true }) res: Response,
  ): Promise<ProductSyncPlanDto | ProductSyncQueuedDto> {
    if (!PRODUCT_ID.test(id)) throw invalid('id', 'id must be a Shopify product id (decimal digits).');
    const shop = this.shopOf(query.shop);
    if (query.dryRun === 'true') {
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
  private shopOf(value: string | undefined): string {
    if (value === undefined && this.shops.all.length === 1)
      return (this.shops.all[0] as { domain: string }).domain;
    const shop = value === undefined ? undefined : this.shops.find(value);
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
