import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, UseGuards } from '@nestjs/common';
import { AccountRegistry } from '../accounts/account.registry.js';
import { parseAccountDefinition, parseBehaviour } from '../accounts/account-definition.js';
import { describeApiKey } from '../accounts/api-key.js';
import { ok } from '../http/envelope.js';
import { accountSummary } from './account-summary.js';
import { PortalTokenGuard } from './portal-token.guard.js';

/** Account setup, which the real service does in its web portal (README, "Portal API"). */
@Controller('portal/v1/accounts')
@UseGuards(PortalTokenGuard)
export class PortalAccountsController {
  constructor(private readonly registry: AccountRegistry) {}

  @Post()
  @HttpCode(200)
  create(@Body() body: unknown) {
    const { account, generatedKeys } = this.registry.create(parseAccountDefinition(body));
    const plain = new Map(generatedKeys.map((k) => [k.id, k.key]));
    return ok({
      id: account.id,
      apiKeys: [...account.apiKeys.values()].map((k) => {
        const key = plain.get(k.id);
        return key ? { ...describeApiKey(k), key } : describeApiKey(k);
      }),
    });
  }

  @Get()
  list() {
    return ok({ accounts: this.registry.list().map(accountSummary) });
  }

  @Get(':id')
  get(@Param('id') id: string) {
    return ok(accountSummary(this.registry.require(id)));
  }

  @Patch(':id/behaviour')
  setBehaviour(@Param('id') id: string, @Body() body: unknown) {
    const account = this.registry.require(id);
    account.behaviour = { ...account.behaviour, ...parseBehaviour(body) };
    return ok({ behaviour: { ...account.behaviour } });
  }

  @Delete(':id')
  delete(@Param('id') id: string) {
    this.registry.delete(id);
    return ok({ id, status: 'deleted' });
  }
}
