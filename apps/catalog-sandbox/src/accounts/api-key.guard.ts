import { type CanActivate, type ExecutionContext, Injectable, SetMetadata } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { CatalogApiError } from '../http/catalog-api.error.js';
import type { SandboxRequest } from '../http/sandbox-request.js';
import { TrafficPolicy } from '../traffic/traffic-policy.js';
import type { Account } from './account.js';
import { AccountRegistry } from './account.registry.js';
import { type ApiKey, grants, type Permission } from './api-key.js';

const PERMISSION = 'catalog-sandbox:permission';

/** Marks a `/v1` handler with the permission its API key needs. */
export const RequirePermission = (permission: Permission) => SetMetadata(PERMISSION, permission);

/**
 * Authenticates `/v1` calls by `X-API-Key`: a missing, unknown or deactivated key answers 401;
 * a key without the handler's permission answers 403. Leaves the account on the request, then
 * applies the account's rate limit and injected faults (TrafficPolicy).
 */
@Injectable()
export class ApiKeyGuard implements CanActivate {
  constructor(
    private readonly registry: AccountRegistry,
    private readonly reflector: Reflector,
    private readonly traffic: TrafficPolicy,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const req = context.switchToHttp().getRequest<SandboxRequest>();
    const found = this.authenticate(req);
    req.catalog = found;
    const permission = this.reflector.getAllAndOverride<Permission | undefined>(PERMISSION, [
      context.getHandler(),
      context.getClass(),
    ]);
    if (permission && !grants(found.key, permission)) throw CatalogApiError.forbidden(permission);
    await this.traffic.admit(found.account, req);
    return true;
  }

  /** The account and key of the request's `X-API-Key`; 401 when missing, unknown or deactivated. */
  authenticate(req: SandboxRequest): { account: Account; key: ApiKey } {
    const plain = req.header('x-api-key');
    if (!plain) throw CatalogApiError.unauthorized('The X-API-Key header is missing.');
    const found = this.registry.resolveKey(plain);
    if (!found) throw CatalogApiError.unauthorized('The API key is not valid.');
    if (!found.key.active) throw CatalogApiError.unauthorized('The API key is deactivated.');
    return found;
  }
}
