import { createHash, timingSafeEqual } from 'node:crypto';
import { type CanActivate, type ExecutionContext, Inject, Injectable } from '@nestjs/common';
import type { CatalogSandboxConfig } from '../config/catalog-sandbox.config.js';
import { CatalogApiError } from '../http/catalog-api.error.js';
import type { SandboxRequest } from '../http/sandbox-request.js';
import { SANDBOX_CONFIG } from '../sandbox.tokens.js';

/** Guards `/portal/v1` with the configured `X-Portal-Token` (compared in constant time). */
@Injectable()
export class PortalTokenGuard implements CanActivate {
  private readonly expected: Buffer;

  constructor(@Inject(SANDBOX_CONFIG) config: CatalogSandboxConfig) {
    this.expected = digest(config.portal.token);
  }

  canActivate(context: ExecutionContext): boolean {
    const given = context.switchToHttp().getRequest<SandboxRequest>().header('x-portal-token');
    if (!given || !timingSafeEqual(digest(given), this.expected)) {
      throw CatalogApiError.unauthorized('The X-Portal-Token header is missing or wrong.');
    }
    return true;
  }
}

function digest(value: string): Buffer {
  return createHash('sha256').update(value).digest();
}
