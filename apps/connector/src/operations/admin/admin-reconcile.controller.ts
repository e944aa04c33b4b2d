import { Body, Controller, HttpCode, Post, Query, UseGuards, UseInterceptors } from '@nestjs/common';
import { ApiBearerAuth, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { ConnectorError } from '../../platform/http/connector.error.js';
import { ApiConnectorErrors } from '../../platform/http/connector-error.dto.js';
import { ConnectorErrorCode } from '../../platform/http/connector-error-code.js';
import { ResyncService } from '../../resync/resync.service.js';
import { ResyncRunDto } from '../../resync/resync-run.dto.js';
import { AdminJsonBodyInterceptor } from './admin-json-body.interceptor.js';
import { AdminTokenGuard } from './admin-token.guard.js';
import { runParametersOf, ShopRunParameters } from './run-parameters.dto.js';

/**
 * `POST /admin/reconcile?shop=[&dryRun=true]` (issue 31): the shop's reconciliation now, as a
 * run of scope `reconcile` shown by `GET /admin/resync/{id}` (what it found, and a dry run's
 * plan: it reads and plans those products, sends nothing, leaves the checkpoint). The
 * parameters may also come in a JSON body.
 */
@ApiTags('admin')
@ApiBearerAuth('adminToken')
@ApiConnectorErrors(401, 429, 503)
@Controller('admin/reconcile')
@UseGuards(AdminTokenGuard)
export class AdminReconcileController {
  constructor(private readonly resync: ResyncService) {}

  @Post()
  @HttpCode(200)
  @UseInterceptors(AdminJsonBodyInterceptor)
  @ApiOperation({
    operationId: 'startReconcile',
    summary: "The shop's reconciliation now, as a run (`scope: reconcile`), or its dry run (`dryRun`)",
    description:
      'Missed changes (products updated since the checkpoint the sku map has not seen) and missed deletions (products the map holds that Shopify no longer lists), found as the scheduled reconciliation finds them (without its skip of a run soon after the last), are listed in the run (`GET /admin/resync/{id}`) and enqueued with reason `reconcile`; the checkpoint moves. A dry run plans each instead, sends nothing and leaves the checkpoint (a shop without one finds nothing). The parameters may also come in a JSON body; the query wins.',
  })
  @ApiOkResponse({ type: ResyncRunDto })
  @ApiConnectorErrors(400, 404, 413)
  async start(@Query() query: ShopRunParameters, @Body() body: ShopRunParameters): Promise<ResyncRunDto> {
    const given = runParametersOf(query, body);
    if (given.shop === undefined) {
      throw new ConnectorError(ConnectorErrorCode.BAD_REQUEST, 'shop is required.', { parameter: 'shop' });
    }
    return this.resync.startReconcile(given.shop.toLowerCase(), given.dryRun ?? false);
  }
}
