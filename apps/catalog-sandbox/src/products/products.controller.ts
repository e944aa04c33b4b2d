import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Res, UseGuards } from '@nestjs/common';
import type { Response } from 'express';
import type { Account } from '../accounts/account.js';
import { ApiKeyGuard, RequirePermission } from '../accounts/api-key.guard.js';
import { Permission } from '../accounts/api-key.js';
import { CurrentAccount } from '../accounts/current-account.decorator.js';
import { ok } from '../http/envelope.js';
import { ProductsService } from './products.service.js';
import { parseProductWrite } from './write-bodies.js';

@Controller('v1/products')
@UseGuards(ApiKeyGuard)
export class ProductsController {
  constructor(private readonly products: ProductsService) {}

  @Post()
  @RequirePermission(Permission.PRODUCTS_WRITE)
  create(
    @CurrentAccount() account: Account,
    @Body() body: unknown,
    @Res({ passthrough: true }) res: Response,
  ) {
    res.status(account.behaviour.createStatus);
    return ok(this.products.create(account, parseProductWrite(body, 'required')));
  }

  @Get(':skuId')
  @RequirePermission(Permission.PRODUCTS_READ)
  get(@CurrentAccount() account: Account, @Param('skuId') skuId: string) {
    return ok(this.products.get(account, skuId));
  }

  @Patch()
  @HttpCode(200)
  @RequirePermission(Permission.PRODUCTS_WRITE)
  patchBySupplierSku(@CurrentAccount() account: Account, @Body() body: unknown) {
    return ok(this.products.patchBySupplierSku(account, parseProductWrite(body, 'required')));
  }

  @Patch(':skuId')
  @RequirePermission(Permission.PRODUCTS_WRITE)
  patchBySkuId(@CurrentAccount() account: Account, @Param('skuId') skuId: string, @Body() body: unknown) {
    return ok(this.products.patchBySkuId(account, skuId, parseProductWrite(body, 'optional')));
  }

  @Delete(':skuId')
  @RequirePermission(Permission.PRODUCTS_WRITE)
  delete(@CurrentAccount() account: Account, @Param('skuId') skuId: string) {
    return ok(this.products.delete(account, skuId));
  }
}
