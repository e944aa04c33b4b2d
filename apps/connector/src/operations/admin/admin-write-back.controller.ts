import { Body, Controller, HttpCode, Param, Post, Query, UseGuards, UseInterceptors } from '@nestjs/common';
import { ApiBearerAuth, ApiOkResponse, ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import { ConnectorError } from '../../platform/http/connector.error.js';
import { ApiConnectorErrors } from '../../platform/http/connector-error.dto.js';
import { ConnectorErrorCode } from '../../platform/http/connector-error-code.js';
import { PushNow } from '../../write-back/push/push-now.service.js';
import { AdminJsonBodyInterceptor } from './admin-json-body.interceptor.js';
import { AdminTokenGuard } from './admin-token.guard.js';
import { runParametersOf, ShopRunParameters } from './run-parameters.dto.js';
import { WriteBackRunDto } from './write-back-run.dto.js';

/**
 * `POST /admin/products/{id}/write-back?shop=&dryRun=`: runs one product's write-back now (issue
 * 31); `dryRun=true` answers the mutations it would send, sending and storing nothing. `shop`
 * and `dryRun` may also come in a JSON body.
 */
@ApiTags('admin')
@ApiBearerAuth('adminToken')
@ApiConnectorErrors(401, 429, 503)
@Controller('admin/products')
@UseGuards(AdminTokenGuard)
export class AdminWriteBackController {
  constructor(private readonly pushes: PushNow) {}

  @Post(':id/write-back')
  @HttpCode(200)
  @UseInterceptors(AdminJsonBodyInterceptor)
  @ApiOperation({
    operationId: 'writeBackProduct',
    summary: "Run one product's write-back now; with dryRun=true, answer the mutations it would send",
    description:
      "Reads the product's catalog records and its Shopify targets, decides, and (not a dry run, shop live) " +
      "sends the mutations, under the product's lock. A dry run sends and stores nothing: `planned` lists each " +
      "mutation (document name, variables) with each target's value before and after. A shop in shadow " +
      'records the plan as planned writes instead of sending it. `shop` and `dryRun` may also come in a JSON body. ' +
      '400: a bad or missing parameter; 404: not a Shopify product id; 409 product_busy: the product is being ' +
      "synced or pushed; 422 write_back_rejected: Shopify refused a write (its messages); 503 not_ready: the shop's " +
      'mapping is not checked yet, shopify_unavailable: writes not confirmed.',
  })
  @ApiParam({ name: 'id', schema: { type: 'string', pattern: '^[1-9][0-9]*$' } })
  @ApiOkResponse({ type: WriteBackRunDto })
  @ApiConnectorErrors(400, 404, 409, 413, 422)
  async writeBack(
    @Param('id') id: string,
    @Query() query: ShopRunParameters,
    @Body() body: ShopRunParameters,
  ): Promise<WriteBackRunDto> {
    const given = runParametersOf(query, body);
    if (given.shop === undefined) {
      throw new ConnectorError(ConnectorErrorCode.BAD_REQUEST, 'shop is required.', { parameter: 'shop' });
    }
    return this.pushes.run(given.shop.toLowerCase(), id, given.dryRun ?? false);
  }
}
