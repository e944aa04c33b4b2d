import { Controller, Get, HttpCode, Param, Post, Query, Req, UseGuards } from '@nestjs/common';
import type { Request } from 'express';
import { ConnectorError } from '../../platform/http/connector.error.js';
import { ConnectorErrorCode } from '../../platform/http/connector-error-code.js';
import { ResyncService } from '../../resync/resync.service.js';
import type { ResyncRunDto } from '../../resync/resync-run.dto.js';
import { dryRunOf, parameters } from './admin-run-parameters.js';
import { AdminTokenGuard } from './admin-token.guard.js';

const PRODUCT_ID = /^[1-9]\d{0,19}$/;

/**
 * Resync runs over HTTP (README, "Resync"): start one for a product (`?shop=&product=`) or a
 * whole shop (`?shop=`), a dry run with `dryRun=true` (issue 31: it plans, sends nothing; its
 * plan shows in the run), show its progress, cancel it. Every route needs the admin token. The
 * parameters may also come in a JSON body.
 */
@Controller('admin/resync')
@UseGuards(AdminTokenGuard)
export class AdminResyncController {
  constructor(private readonly resync: ResyncService) {}

  @Post()
  @HttpCode(200)
  async start(@Query() query: Record<string, unknown>, @Req() req: Request): Promise<ResyncRunDto> {
    const given = await parameters(query, req, ['shop', 'product', 'dryRun']);
    const shop = given.shop;
    if (typeof shop !== 'string' || shop === '') throw invalid('shop', 'shop is required.');
    const product = given.product;
    if (product !== undefined && (typeof product !== 'string' || !PRODUCT_ID.test(product))) {
      throw invalid('product', 'product must be a Shopify product id (decimal digits).');
    }
    return this.resync.start(shop.toLowerCase(), product ?? null, dryRunOf(given));
  }

  @Get(':id')
  show(@Param('id') id: string, @Query() query: Record<string, unknown>): Promise<ResyncRunDto> {
    const unknown = Object.keys(query).filter((name) => name !== 'planAfter');
    if (unknown.length > 0)
      throw invalid(unknown[0] as string, `Unknown query parameter ${unknown.join(', ')}.`);
    const after = query.planAfter;
    if (after !== undefined && (typeof after !== 'string' || !PRODUCT_ID.test(after))) {
      throw invalid('planAfter', 'planAfter must be a Shopify product id (decimal digits).');
    }
    return this.resync.show(id, after);
  }

  @Post(':id/cancel')
  @HttpCode(200)
  cancel(@Param('id') id: string): Promise<ResyncRunDto> {
    return this.resync.cancel(id);
  }
}

function invalid(parameter: string, message: string): ConnectorError {
  return new ConnectorError(ConnectorErrorCode.BAD_REQUEST, message, { parameter });
}
