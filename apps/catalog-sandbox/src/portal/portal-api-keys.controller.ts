import { Body, Controller, Delete, Get, HttpCode, Param, Post, UseGuards } from '@nestjs/common';
import { AccountRegistry } from '../accounts/account.registry.js';
import { parsePermissions } from '../accounts/account-definition.js';
import { describeApiKey } from '../accounts/api-key.js';
import { CatalogApiError } from '../http/catalog-api.error.js';
import { ok } from '../http/envelope.js';
import { PortalTokenGuard } from './portal-token.guard.js';

/** API key management: create, deactivate, activate, delete; at most 5 active per account. */
@Controller('portal/v1/accounts/:id/api-keys')
@UseGuards(PortalTokenGuard)
export class PortalApiKeysController {
  constructor(private readonly registry: AccountRegistry) {}

  @Get()
  list(@Param('id') id: string) {
    return ok({ apiKeys: [...this.registry.require(id).apiKeys.values()].map(describeApiKey) });
  }

  /** Body `{key?, permissions?}`; without `key` one is generated and shown this once. */
  @Post()
  @HttpCode(200)
  create(@Param('id') id: string, @Body() body: unknown) {
    const account = this.registry.require(id);
    const input = (typeof body === 'object' && body !== null ? body : {}) as {
      key?: unknown;
      permissions?: unknown;
    };
    if (input.key !== undefined && (typeof input.key !== 'string' || input.key.length < 8)) {
      throw CatalogApiError.validation('"key" must be a string of 8+ characters.', { field: 'key' });
    }
    const permissions = parsePermissions(input.permissions, 'permissions');
    const { apiKey, key } = this.registry.addKey(account, input.key as string | undefined, permissions);
    return ok(input.key === undefined ? { ...describeApiKey(apiKey), key } : describeApiKey(apiKey));
  }

  @Post(':keyId/deactivate')
  @HttpCode(200)
  deactivate(@Param('id') id: string, @Param('keyId') keyId: string) {
    return ok(describeApiKey(this.registry.require(id).setKeyActive(keyId, false)));
  }

  @Post(':keyId/activate')
  @HttpCode(200)
  activate(@Param('id') id: string, @Param('keyId') keyId: string) {
    return ok(describeApiKey(this.registry.require(id).setKeyActive(keyId, true)));
  }

  @Delete(':keyId')
  delete(@Param('id') id: string, @Param('keyId') keyId: string) {
    this.registry.deleteKey(this.registry.require(id), keyId);
    return ok({ id: keyId, status: 'deleted' });
  }
}
