import { Body, Controller, HttpCode, Param, Post, Query, UseGuards } from '@nestjs/common';
import { ConnectorError } from '../../platform/http/connector.error.js';
import { ConnectorErrorCode } from '../../platform/http/connector-error-code.js';
import { PushNow, type PushNowResult } from '../../write-back/push/push-now.js';
import { AdminTokenGuard } from './admin-token.guard.js';

/**
 * `POST /admin/products/{id}/write-back?shop=&dryRun=`: runs one product's write-back now (issue
 * 31); `dryRun=true` answers the mutations it would send, sending and storing nothing. `shop`
 * and `dryRun` may also come in a JSON body.
 */
@Controller('admin/products')
@UseGuards(AdminTokenGuard)
export class AdminWriteBackController {
  constructor(private readonly pushes: PushNow) {}

  @Post(':id/write-back')
  @HttpCode(200)
  async writeBack(
    @Param('id') id: string,
    @Query() query: Record<string, unknown>,
    @Body() body: unknown,
  ): Promise<PushNowResult> {
    const fromBody = body !== null && typeof body === 'object' ? (body as Record<string, unknown>) : {};
    const given = { ...fromBody, ...query };
    const unknown = Object.keys(given).filter((name) => name !== 'shop' && name !== 'dryRun');
    if (unknown.length > 0)
      throw badRequest(unknown[0] as string, 'The only parameters are shop and dryRun.');
    if (typeof given.shop !== 'string' || given.shop === '') throw badRequest('shop', 'shop is required.');
    const dryRun = given.dryRun ?? false;
    if (![true, false, 'true', 'false'].includes(dryRun as string | boolean))
      throw badRequest('dryRun', 'dryRun must be true or false.');
    return this.pushes.run(given.shop.toLowerCase(), id, dryRun === true || dryRun === 'true');
  }
}

function badRequest(parameter: string, message: string): ConnectorError {
  return new ConnectorError(ConnectorErrorCode.BAD_REQUEST, message, { parameter });
}
