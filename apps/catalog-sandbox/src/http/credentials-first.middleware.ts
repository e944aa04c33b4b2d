import { Injectable, type NestMiddleware } from '@nestjs/common';
import type { NextFunction, Response } from 'express';
import { ApiKeyGuard } from '../accounts/api-key.guard.js';
import { PortalTokenGuard } from '../portal/portal-token.guard.js';
import type { SandboxRequest } from './sandbox-request.js';

/**
 * Checks the caller's credential (the portal token on `/portal`, the API key on `/v1`) before
 * the body is read, so an unauthenticated caller is refused at once (401) instead of having its
 * body, up to the portal's 256 MiB, parsed first. The guards check again, with permissions.
 */
@Injectable()
export class CredentialsFirstMiddleware implements NestMiddleware {
  constructor(
    private readonly portalToken: PortalTokenGuard,
    private readonly apiKey: ApiKeyGuard,
  ) {}

  use(req: SandboxRequest, _res: Response, next: NextFunction): void {
    try {
      if (req.path.startsWith('/portal/')) this.portalToken.verify(req);
      else this.apiKey.authenticate(req);
      next();
    } catch (error) {
      next(error);
    }
  }
}
