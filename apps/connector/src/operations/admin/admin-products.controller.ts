import { Controller, Get, Param, Query, UseGuards } from '@nestjs/common';
import {
  ApiBearerAuth,
  ApiOkResponse,
  ApiOperation,
  ApiParam,
  ApiPropertyOptional,
  ApiTags,
} from '@nestjs/swagger';
import { IsOptional, IsString, Length } from 'class-validator';
import { ApiConnectorErrors } from '../../platform/http/connector-error.dto.js';
import { AdminTokenGuard } from './admin-token.guard.js';
import { ProductStatusDto } from './product-status.dto.js';
import { ProductStatus } from './product-status.service.js';

/** Why: `GET /admin/products/{id}`'s only parameter. */
export class ProductStatusQuery {
  @ApiPropertyOptional({ description: 'The shop, when the id is known in several.' })
  @IsOptional()
  @IsString()
  @Length(1, 500)
  shop?: string;
}

/** `GET /admin/products/{id}`: a product's status by Shopify product id, `supplierSku` or `skuId`. */
@ApiTags('admin')
@ApiBearerAuth('adminToken')
@ApiConnectorErrors(401, 429, 503)
@Controller('admin/products')
@UseGuards(AdminTokenGuard)
export class AdminProductsController {
  constructor(private readonly status: ProductStatus) {}

  @Get(':id')
  @ApiOperation({
    operationId: 'getProductStatus',
    summary:
      "A product's status by Shopify product id, supplierSku or skuId: map rows, last sync, last error, catalog enrichment, write-backs",
  })
  @ApiParam({ name: 'id', schema: { type: 'string', maxLength: 255 } })
  @ApiOkResponse({ type: ProductStatusDto })
  @ApiConnectorErrors(400, 404)
  async show(@Param('id') id: string, @Query() query: ProductStatusQuery): Promise<ProductStatusDto> {
    return this.status.of(id, query.shop?.toLowerCase());
  }
}
