import { Controller, Get, Param, Query, UseGuards } from '@nestjs/common';
import { ConnectorError } from '../../platform/http/connector.error.js';
import { ConnectorErrorCode } from '../../platform/http/connector-error-code.js';
import { AdminTokenGuard } from './admin-token.guard.js';
import type { ProductStatusDto } from './product-status.dto.js';
import { ProductStatus } from './product-status.js';

/** `GET /admin/products/{id}`: a product's status by Shopify product id, `supplierSku` or `skuId`. */
@Controller('admin/products')
@UseGuards(AdminTokenGuard)
export class AdminProductsController {
  constructor(private readonly status: ProductStatus) {}

  @Get(':id')
  async show(@Param('id') id: string, @Query() query: Record<string, unknown>): Promise<ProductStatusDto> {
    const unknown = Object.keys(query).filter((name) => name !== 'shop');
    if (unknown.length > 0 || (query.shop !== undefined && typeof query.shop !== 'string')) {
      throw new ConnectorError(ConnectorErrorCode.BAD_REQUEST, 'The only parameter is shop.', {
        parameter: unknown[0] ?? 'shop',
      });
    }
    return this.status.of(id, (query.shop as string | undefined)?.toLowerCase());
  }
}
