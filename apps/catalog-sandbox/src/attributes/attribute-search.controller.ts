import { Body, Controller, HttpCode, Post, UseGuards } from '@nestjs/common';
import type { Account } from '../accounts/account.js';
import { ApiKeyGuard, RequirePermission } from '../accounts/api-key.guard.js';
import { Permission } from '../accounts/api-key.js';
import { CurrentAccount } from '../accounts/current-account.decorator.js';
import { ok } from '../http/envelope.js';
import { searchAttributes } from './attribute-search.service.js';

@Controller('v1/attributes')
@UseGuards(ApiKeyGuard)
export class AttributeSearchController {
  @Post('search')
  @HttpCode(200)
  @RequirePermission(Permission.ATTRIBUTES_READ)
  search(@CurrentAccount() account: Account, @Body() body: unknown) {
    return ok(searchAttributes(account, body));
  }
}
