import { Body, Controller, HttpCode, NotImplementedException, Post, UseGuards } from '@nestjs/common';
import type { Account } from '../accounts/account.js';
import { ApiKeyGuard, RequirePermission } from '../accounts/api-key.guard.js';
import { Permission } from '../accounts/api-key.js';
import { CurrentAccount } from '../accounts/current-account.decorator.js';

@Controller('v1/attributes')
@UseGuards(ApiKeyGuard)
export class AttributeSearchController {
  @Post('search')
  @HttpCode(200)
  @RequirePermission(Permission.ATTRIBUTES_READ)
  search(@CurrentAccount() _account: Account, @Body() _body: unknown): never {
    throw new NotImplementedException('attribute search is not implemented yet');
  }
}
