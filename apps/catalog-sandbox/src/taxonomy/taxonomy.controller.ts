import { Controller, Get, UseGuards } from '@nestjs/common';
import type { Account } from '../accounts/account.js';
import { ApiKeyGuard, RequirePermission } from '../accounts/api-key.guard.js';
import { Permission } from '../accounts/api-key.js';
import { CurrentAccount } from '../accounts/current-account.decorator.js';
import { ok } from '../http/envelope.js';

@Controller('v1/taxonomies')
@UseGuards(ApiKeyGuard)
export class TaxonomyController {
  @Get()
  @RequirePermission(Permission.TAXONOMY_READ)
  get(@CurrentAccount() account: Account) {
    return ok({ tree: account.taxonomy.tree() });
  }
}
