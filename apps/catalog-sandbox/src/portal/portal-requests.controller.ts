import { Controller, Delete, Get, Param, Query, UseGuards } from '@nestjs/common';
import { AccountRegistry } from '../accounts/account.registry.js';
import { CatalogApiError } from '../http/catalog-api.error.js';
import { ok } from '../http/envelope.js';
import { PortalTokenGuard } from './portal-token.guard.js';

/** The account's `/v1` request log: read with filters, or clear. */
@Controller('portal/v1/accounts/:id/requests')
@UseGuards(PortalTokenGuard)
export class PortalRequestsController {
  constructor(private readonly registry: AccountRegistry) {}

  /** Query: method, path (exact, or a prefix ending in `*`), status, since (epoch ms), limit. */
  @Get()
  list(@Param('id') id: string, @Query() query: Record<string, string | undefined>) {
    const result = this.registry.require(id).requestLog.query({
      method: query.method,
      path: query.path,
      status: optionalInt(query.status, 'status'),
      since: optionalInt(query.since, 'since'),
      limit: optionalInt(query.limit, 'limit'),
    });
    return ok({ total: result.total, requests: result.entries });
  }

  @Delete()
  clear(@Param('id') id: string) {
    return ok({ cleared: this.registry.require(id).requestLog.clear() });
  }
}

function optionalInt(value: string | undefined, field: string): number | undefined {
  if (value === undefined || value === '') return undefined;
  if (!/^\d+$/.test(value))
    throw CatalogApiError.validation(`Query "${field}" must be a non-negative integer.`, { field });
  return Number(value);
}
