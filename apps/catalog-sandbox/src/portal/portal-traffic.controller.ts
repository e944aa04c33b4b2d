import { Body, Controller, Delete, Get, Param, Patch, Put, UseGuards } from '@nestjs/common';
import { AccountRegistry } from '../accounts/account.registry.js';
import { CatalogApiError } from '../http/catalog-api.error.js';
import { ok } from '../http/envelope.js';
import { parseFaultPlan } from '../traffic/fault-plan.parser.js';
import type { RateLimitSettings } from '../traffic/token-bucket.js';
import { PortalTokenGuard } from './portal-token.guard.js';

/** Per-account traffic controls: rate limit settings and fault injection. */
@Controller('portal/v1/accounts/:id')
@UseGuards(PortalTokenGuard)
export class PortalTrafficController {
  constructor(private readonly registry: AccountRegistry) {}

  @Get('faults')
  faults(@Param('id') id: string) {
    return ok(this.registry.require(id).faults.report());
  }

  /** Replaces the account's fault plan (README, "Fault injection"); counters keep running. */
  @Put('faults')
  setFaults(@Param('id') id: string, @Body() body: unknown) {
    const account = this.registry.require(id);
    account.faults.set(parseFaultPlan(body));
    return ok(account.faults.report());
  }

  /** Turns every fault off and zeroes the counters. */
  @Delete('faults')
  clearFaults(@Param('id') id: string) {
    const account = this.registry.require(id);
    account.faults.clear();
    account.faults.resetCounters();
    return ok(account.faults.report());
  }

  @Get('rate-limit')
  rateLimit(@Param('id') id: string) {
    return ok(this.registry.require(id).rateLimit);
  }

  /** Body: any of `{enabled, ratePerSecond, burst}`. */
  @Patch('rate-limit')
  setRateLimit(@Param('id') id: string, @Body() body: unknown) {
    const account = this.registry.require(id);
    const next = { ...account.rateLimit, ...parseRateLimit(body) };
    account.setRateLimit(next);
    return ok(account.rateLimit);
  }
}

function parseRateLimit(body: unknown): Partial<RateLimitSettings> {
  const input = (typeof body === 'object' && body !== null ? body : {}) as Record<string, unknown>;
  const result: Partial<RateLimitSettings> = {};
  for (const [key, value] of Object.entries(input)) {
    if (key === 'enabled' && typeof value === 'boolean') result.enabled = value;
    else if (key === 'ratePerSecond' && typeof value === 'number' && value > 0) result.ratePerSecond = value;
    else if (key === 'burst' && Number.isInteger(value) && (value as number) >= 1)
      result.burst = value as number;
    else {
      throw CatalogApiError.validation(
        `Invalid rate-limit field "${key}": enabled (boolean), ratePerSecond (> 0), burst (integer >= 1).`,
        { field: key },
      );
    }
  }
  return result;
}
