import { Body, Controller, Get, HttpCode, Param, Patch, Post, UseGuards } from '@nestjs/common';
import { AccountRegistry } from '../accounts/account.registry.js';
import { CatalogApiError } from '../http/catalog-api.error.js';
import { ok } from '../http/envelope.js';
import { PortalTokenGuard } from '../portal/portal-token.guard.js';
import { ProductsService } from '../products/products.service.js';
import { requireRecord } from '../products/record-lookup.js';
import { parseAttributes } from '../products/write-bodies.js';
import { ReviewService } from './review.service.js';
import { parseReviewBody } from './review-body.js';

/**
 * What a portal user does to one record: read it, edit it (the same rules as PATCH
 * /v1/products/{skuId}; the values become the user's, without blame or sources), review its
 * enriched values. No API key, no rate limit, no faults.
 */
@Controller('portal/v1/accounts/:id/products/:skuId')
@UseGuards(PortalTokenGuard)
export class PortalProductsController {
  constructor(
    private readonly registry: AccountRegistry,
    private readonly products: ProductsService,
    private readonly reviews: ReviewService,
  ) {}

  @Get()
  get(@Param('id') id: string, @Param('skuId') skuId: string) {
    return ok(this.products.get(this.registry.require(id), skuId));
  }

  /** Body `{attributes: [{key, value}]}`. */
  @Patch()
  edit(@Param('id') id: string, @Param('skuId') skuId: string, @Body() body: unknown) {
    const account = this.registry.require(id);
    const input =
      typeof body === 'object' && body !== null && !Array.isArray(body)
        ? (body as Record<string, unknown>)
        : null;
    if (!input || input.attributes === undefined) {
      throw CatalogApiError.validation('The body must be {"attributes": [{"key", "value"}]}.', {
        field: 'attributes',
      });
    }
    const attributes = parseAttributes(input.attributes, 'attributes');
    return ok(
      this.products.patch(account, requireRecord(account, skuId), { supplierSku: undefined, attributes }),
    );
  }

  /** Body `{approve: [keys], reject: [keys]}`. */
  @Post('review')
  @HttpCode(200)
  review(@Param('id') id: string, @Param('skuId') skuId: string, @Body() body: unknown) {
    return ok(this.reviews.review(this.registry.require(id), skuId, parseReviewBody(body)));
  }
}
