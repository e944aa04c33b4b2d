import { Controller, Get, Param, Query, Res, UseGuards } from '@nestjs/common';
import {
  ApiBearerAuth,
  ApiExtraModels,
  ApiOkResponse,
  ApiOperation,
  ApiParam,
  ApiQuery,
  ApiTags,
  getSchemaPath,
} from '@nestjs/swagger';
import type { Response } from 'express';
import { ConnectorError } from '../../platform/http/connector.error.js';
import { ApiConnectorErrors } from '../../platform/http/connector-error.dto.js';
import { ConnectorErrorCode } from '../../platform/http/connector-error-code.js';
import { PlannedWritesRepository } from '../../product-sync/planned/planned-writes.repository.js';
import { ShopModes } from '../../shops/shop-modes.service.js';
import { Shops } from '../../shops/shops.js';
import { AdminTokenGuard } from './admin-token.guard.js';
import { ShopPreviewDto } from './shop-preview.dto.js';
import { previewCsv, shopPreview } from './shop-preview.js';

/**
 * `GET /admin/shops/{shop}/preview`: what a shop in shadow would have sent (issue 31): counts,
 * and per product each record's field diffs and final state; `?format=csv` as a CSV file.
 */
@ApiTags('admin')
@ApiBearerAuth('adminToken')
@ApiConnectorErrors(401, 429, 503)
@ApiExtraModels(ShopPreviewDto)
@Controller('admin/shops')
@UseGuards(AdminTokenGuard)
export class AdminPreviewController {
  constructor(
    private readonly shops: Shops,
    private readonly modes: ShopModes,
    private readonly planned: PlannedWritesRepository,
  ) {}

  @Get(':shop/preview')
  @ApiOperation({
    operationId: 'previewShop',
    summary:
      "What a shop in shadow would have sent: counts of creates, patches, deletes, uploads, write-backs by target, conflicts and mapping gaps, and per product each record's field diffs and final state",
    description:
      "Built from the planned writes (each product's latest plan): catalog calls, media uploads, and the write-back's Shopify mutations (a product's targets are one record with `source: shopify`). `?format=csv`: the same as a CSV file (`text/csv`), one line per changed field. 404: no such shop.",
  })
  @ApiParam({ name: 'shop', description: 'The shop (`<name>.myshopify.com`).' })
  @ApiQuery({
    name: 'format',
    required: false,
    enum: ['json', 'csv'],
    description: '`json` (default) or `csv`',
  })
  @ApiOkResponse({
    description: 'Success',
    content: {
      'application/json': { schema: { $ref: getSchemaPath(ShopPreviewDto) } },
      'text/csv': { schema: { type: 'string' } },
    },
  })
  @ApiConnectorErrors(400, 404)
  async preview(
    @Param('shop') domain: string,
    @Query('format') format: string | undefined,
    @Res({ passthrough: true }) res: Response,
  ): Promise<ShopPreviewDto | string> {
    const shop = this.shops.find(domain);
    if (shop === undefined) {
      throw new ConnectorError(ConnectorErrorCode.NOT_FOUND, `No shop ${domain.toLowerCase()}.`, {
        shop: domain.toLowerCase(),
      });
    }
    if (format !== undefined && format !== 'json' && format !== 'csv') {
      throw new ConnectorError(ConnectorErrorCode.BAD_REQUEST, 'format must be json or csv.', {
        parameter: 'format',
      });
    }
    const preview = shopPreview(
      shop.domain,
      await this.modes.modeOf(shop.domain),
      await this.planned.ofShop(shop.domain),
    );
    if (format !== 'csv') return preview;
    res.type('text/csv; charset=utf-8');
    res.setHeader('Content-Disposition', `attachment; filename="${shop.domain}-preview.csv"`);
    return previewCsv(preview);
  }
}
