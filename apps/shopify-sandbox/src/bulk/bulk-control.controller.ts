import { Body, Controller, Get, Param, Put, UseGuards } from '@nestjs/common';
import { ControlTokenGuard } from '../control/control-token.guard.js';
import { ShopifyErrorCode, ShopifySandboxError } from '../http/shopify-sandbox.error.js';
import { isObject } from '../merchant/product-input.js';
import type { Shop } from '../shops/shop.js';
import { ShopRegistry } from '../shops/shop-registry.service.js';
import { BulkOperationService } from './bulk-operation.service.js';
import type { BulkFaultsChange } from './shop-bulk-faults.js';

/**
 * The control API's bulk part (no Shopify equivalent): a shop's runs, and its bulk faults
 * (`failHalfway`, `urlTtlMs`), which override the configuration's switches for that shop, for
 * good or for its next `runs` operations.
 */
@Controller('sandbox/shops/:shop')
@UseGuards(ControlTokenGuard)
export class BulkControlController {
  constructor(
    private readonly shops: ShopRegistry,
    private readonly bulk: BulkOperationService,
  ) {}

  @Get('bulk-operations')
  list(@Param('shop') domain: string) {
    return { bulkOperations: this.bulk.summaries(this.shop(domain)) };
  }

  @Get('bulk-faults')
  readFaults(@Param('shop') domain: string) {
    return this.bulk.faults(this.shop(domain));
  }

  /**
   * `{"failHalfway": true, "urlTtlMs": 60000}`, merged; `null` goes back to the configuration.
   * With `"runs": n` those faults apply to the shop's next n operations only.
   */
  @Put('bulk-faults')
  setFaults(@Param('shop') domain: string, @Body() body: unknown) {
    const shop = this.shop(domain);
    const problems: string[] = [];
    const faults: BulkFaultsChange = {};
    let runs: number | undefined;
    if (!isObject(body)) problems.push('body must be a JSON object');
    for (const [key, value] of Object.entries(isObject(body) ? body : {})) {
      if (key === 'failHalfway' && (typeof value === 'boolean' || value === null)) faults.failHalfway = value;
      else if (key === 'urlTtlMs' && (value === null || isPositiveInteger(value))) {
        faults.urlTtlMs = value as number | null;
      } else if (key === 'runs') {
        if (isPositiveInteger(value)) runs = value;
        else problems.push('runs must be a positive integer');
      } else {
        problems.push(
          `${key} must be ${key === 'urlTtlMs' ? 'a positive integer' : 'true or false'} (or null)`,
        );
      }
    }
    if (runs !== undefined && Object.keys(faults).length === 0) {
      problems.push('runs needs failHalfway or urlTtlMs');
    }
    if (problems.length > 0) throw ShopifySandboxError.badRequest(problems.join('; '));
    return this.bulk.setFaults(shop, faults, runs);
  }

  private shop(domain: string): Shop {
    const shop = this.shops.byDomain(domain);
    if (!shop) throw new ShopifySandboxError(ShopifyErrorCode.NOT_FOUND, `Unknown shop ${domain}`);
    return shop;
  }
}

function isPositiveInteger(value: unknown): value is number {
  return Number.isInteger(value) && (value as number) > 0;
}
