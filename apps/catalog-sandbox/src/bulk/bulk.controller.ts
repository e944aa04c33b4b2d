import { Body, Controller, Delete, HttpCode, Param, Post, UseGuards } from '@nestjs/common';
import { AccountRegistry } from '../accounts/account.registry.js';
import { ok } from '../http/envelope.js';
import { PortalTokenGuard } from '../portal/portal-token.guard.js';
import { parseBulkBody } from './bulk-body.js';
import { BulkLoader } from './bulk-loader.js';

/** Bulk fixtures (README, "Bulk fixtures"): no rate limit, no faults, no request log. */
@Controller('portal/v1/accounts/:id/products')
@UseGuards(PortalTokenGuard)
export class BulkController {
  constructor(
    private readonly registry: AccountRegistry,
    private readonly loader: BulkLoader,
  ) {}

  /** Body `{products: [{supplierSku, parentSupplierSku?, attributes, createdAt?, updatedAt?, dataEnrichment?}]}`. */
  @Post('bulk')
  @HttpCode(200)
  load(@Param('id') id: string, @Body() body: unknown) {
    return ok(this.loader.load(this.registry.require(id), parseBulkBody(body)));
  }

  /** Removes every product and variant of the account (keys, configuration and logs stay). */
  @Delete()
  clear(@Param('id') id: string) {
    const account = this.registry.require(id);
    const deleted = account.products.size;
    account.products.clear();
    return ok({ deleted });
  }
}
