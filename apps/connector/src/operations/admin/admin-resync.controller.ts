import {
  Body,
  Controller,
  Get,
  HttpCode,
  Param,
  Post,
  Query,
  UseGuards,
  UseInterceptors,
} from '@nestjs/common';
import { ApiBearerAuth, ApiOkResponse, ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import { ConnectorError } from '../../platform/http/connector.error.js';
import { ApiConnectorErrors } from '../../platform/http/connector-error.dto.js';
import { ConnectorErrorCode } from '../../platform/http/connector-error-code.js';
import { ResyncService } from '../../resync/resync.service.js';
import { ResyncRunDto } from '../../resync/resync-run.dto.js';
import { AdminJsonBodyInterceptor } from './admin-json-body.interceptor.js';
import { AdminTokenGuard } from './admin-token.guard.js';
import { ResyncRunParameters, ResyncShowQuery, runParametersOf } from './run-parameters.dto.js';

const RUN_ID = ApiParam({ name: 'id', schema: { type: 'string', pattern: '^[1-9][0-9]*$' } });

/**
 * Resync runs over HTTP (README, "Resync"): start one for a product (`?shop=&product=`) or a
 * whole shop (`?shop=`), a dry run with `dryRun=true` (issue 31: it plans, sends nothing; its
 * plan shows in the run), show its progress, cancel it. Every route needs the admin token. The
 * parameters may also come in a JSON body.
 */
@ApiTags('admin')
@ApiBearerAuth('adminToken')
@ApiConnectorErrors(401, 429, 503)
@Controller('admin/resync')
@UseGuards(AdminTokenGuard)
export class AdminResyncController {
  constructor(private readonly resync: ResyncService) {}

  @Post()
  @HttpCode(200)
  @UseInterceptors(AdminJsonBodyInterceptor)
  @ApiOperation({
    operationId: 'startResync',
    summary: 'Resync one product (`product`) or a whole shop: every product read from Shopify again',
    description:
      'A whole shop is walked through the Admin API page by page from a persisted cursor (it resumes after a restart); each product is enqueued with reason `resync`. With `dryRun=true` the walk reads pages (never one bulk query) and each product is planned instead of enqueued: the sku map, sync states, planned writes and the catalog stay as they are. The parameters may also come in a JSON body (`{"shop": ..., "product": ..., "dryRun": true}`); the query wins.',
  })
  @ApiOkResponse({ type: ResyncRunDto })
  @ApiConnectorErrors(400, 404, 413)
  async start(@Query() query: ResyncRunParameters, @Body() body: ResyncRunParameters): Promise<ResyncRunDto> {
    const given = runParametersOf(query, body);
    if (given.shop === undefined) {
      throw new ConnectorError(ConnectorErrorCode.BAD_REQUEST, 'shop is required.', { parameter: 'shop' });
    }
    return this.resync.start(given.shop.toLowerCase(), given.product ?? null, given.dryRun ?? false);
  }

  @Get(':id')
  @ApiOperation({
    operationId: 'getResyncRun',
    summary:
      'A resync or reconciliation run and its progress (done, failed, remaining, estimate); a dry run with its plan',
    description:
      "A dry run's `plan` lists its products with calls, 100 at a time by product id (`planAfter`: the previous page's `nextPlanAfter`); its counts are whole.",
  })
  @RUN_ID
  @ApiOkResponse({ type: ResyncRunDto })
  @ApiConnectorErrors(400, 404)
  show(@Param('id') id: string, @Query() query: ResyncShowQuery): Promise<ResyncRunDto> {
    return this.resync.show(id, query.planAfter);
  }

  @Post(':id/cancel')
  @HttpCode(200)
  @ApiOperation({
    operationId: 'cancelResyncRun',
    summary: 'Stop a running resync before its next page (products already enqueued still sync)',
  })
  @RUN_ID
  @ApiOkResponse({ type: ResyncRunDto })
  @ApiConnectorErrors(404, 409)
  cancel(@Param('id') id: string): Promise<ResyncRunDto> {
    return this.resync.cancel(id);
  }
}
