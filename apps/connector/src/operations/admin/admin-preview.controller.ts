import { Controller, Get, Param, Query, Res, UseGuards } from '@nestjs/common';
import type { Response } from 'express';
import { ConnectorError } from '../../platform/http/connector.error.js';
import { ConnectorErrorCode } from '../../platform/http/connector-error-code.js';
import { PlannedWritesRepository } from '../../product-sync/planned/planned-writes.repository.js';
import { ShopModes } from '../../shops/shop-modes.js';
import { Shops } from '../../shops/shops.js';
import { AdminTokenGuard } from './admin-token.guard.js';
import type { ShopPreviewDto } from './shop-preview.dto.js';
import { previewCsv, shopPreview } from './shop-preview.js';

/**
 * `GET /admin/shops/{shop}/preview`: what a shop in shadow would have sent (issue 31): counts,
 * and per product each record's field diffs and final state; `?format=csv` as a CSV file.
 */
@Controller('admin/shops')
@UseGuards(AdminTokenGuard)
export class AdminPreviewController {
  constructor(
    private readonly shops: Shops,
    private readonly modes: ShopModes,
    private readonly planned: PlannedWritesRepository,
  ) {}

  @Get(':shop/preview')
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
