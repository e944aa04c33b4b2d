import { Body, Controller, HttpCode, NotImplementedException, Post, UseGuards } from '@nestjs/common';
import type { Account } from '../accounts/account.js';
import { ApiKeyGuard, RequirePermission } from '../accounts/api-key.guard.js';
import { Permission } from '../accounts/api-key.js';
import { CurrentAccount } from '../accounts/current-account.decorator.js';

@Controller('v1/products')
@UseGuards(ApiKeyGuard)
export class ProductSearchController {
  @Post('search')
  @HttpCode(200)
  @RequirePermission(Permission.PRODUCTS_READ)
  search(@CurrentAccount() _account: Account, @Body() _body: unknown): never {
    throw new NotImplementedException('product search is not implemented yet');
  }
}
