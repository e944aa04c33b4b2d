import { Body, Controller, Delete, Get, Param, Patch, Post, Res, UseGuards } from '@nestjs/common';
import type { Response } from 'express';
import type { Account } from '../accounts/account.js';
import { ApiKeyGuard, RequirePermission } from '../accounts/api-key.guard.js';
import { Permission } from '../accounts/api-key.js';
import { CurrentAccount } from '../accounts/current-account.decorator.js';
import { ok } from '../http/envelope.js';
import { parseProductWrite, parseVariantCreate } from '../products/write-bodies.js';
import { VariantsService } from './variants.service.js';

@Controller('v1/variants')
@UseGuards(ApiKeyGuard)
export class VariantsController {
  constructor(private readonly variants: VariantsService) {}

  @Post()
  @RequirePermission(Permission.PRODUCTS_WRITE)
  create(
    @CurrentAccount() account: Account,
    @Body() body: unknown,
    @Res({ passthrough: true }) res: Response,
  ) {
    res.status(account.behaviour.createStatus);
    return ok(this.variants.create(account, parseVariantCreate(body)));
  }

  @Get(':skuId')
  @RequirePermission(Permission.PRODUCTS_READ)
  get(@CurrentAccount() account: Account, @Param('skuId') skuId: string) {
    return ok(this.variants.get(account, skuId));
  }

  @Patch(':skuId')
  @RequirePermission(Permission.PRODUCTS_WRITE)
  patch(@CurrentAccount() account: Account, @Param('skuId') skuId: string, @Body() body: unknown) {
    return ok(this.variants.patch(account, skuId, parseProductWrite(body, 'optional')));
  }

  @Delete(':skuId')
  @RequirePermission(Permission.PRODUCTS_WRITE)
  delete(@CurrentAccount() account: Account, @Param('skuId') skuId: string) {
    return ok(this.variants.delete(account, skuId));
  }
}
