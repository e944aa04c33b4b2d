import { createHash, timingSafeEqual } from 'node:crypto';
import { type CanActivate, type ExecutionContext, Inject, Injectable } from '@nestjs/common';
import { SANDBOX_CONFIG } from '../catalog-sandbox.tokens.js';
import type { CatalogSandboxConfig } from '../config/catalog-sandbox.config.js';
import { CatalogApiError } from '../http/catalog-api.error.js';
import type { SandboxRequest } from '../http/sandbox-request.js';

/** Guards `/portal/v1` with the configured `X-Portal-Token` (compared in constant time). */
@Injectable()
export class PortalTokenGuard implements CanActivate {
  private readonly expected: Buffer;

  constructor(@Inject(SANDBOX_CONFIG) config: CatalogSandboxConfig) {
    this.expected = digest(config.portal.token);
  }

  canActivate(context: ExecutionContext): boolean {
    this.verify(context.switchToHttp().getRequest<SandboxRequest>());
    return true;
  }

  /** Throws 401 `unauthorized`, telling the caller which header to send, unless the token is right. */
  verify(req: SandboxRequest): void {
    const given = req.header('x-portal-token');
    if (!given || !timingSafeEqual(digest(given), this.expected)) {
      throw CatalogApiError.unauthorized(
        given ? 'The X-Portal-Token header is wrong.' : 'The X-Portal-Token header is missing.',
        'Send the portal token (CATALOG_SANDBOX_PORTAL_TOKEN) in the X-Portal-Token header.',
      );
    }
  }
}

function digest(value: string): Buffer {
  return createHash('sha256').update(value).digest();
}
