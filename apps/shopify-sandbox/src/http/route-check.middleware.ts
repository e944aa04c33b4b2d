import { Injectable, type NestMiddleware } from '@nestjs/common';
import type { NextFunction, Request, Response } from 'express';
import { routeMatch } from '#lib/app-shell';
import { ShopifySandboxError } from './shopify-sandbox.error.js';

/**
 * Runs before every route: an unknown path answers 404 and a known path called with another
 * method 405 (with `Allow`), both in Shopify's `{"errors": ...}` shape, before any body is read.
 */
@Injectable()
export class RouteCheckMiddleware implements NestMiddleware {
  use(req: Request, _res: Response, next: NextFunction): void {
    const path = new URL(req.originalUrl, 'http://sandbox').pathname;
    const match = routeMatch(req.app, path);
    if (match.kind === 'unknown') next(ShopifySandboxError.notFound());
    else if (!match.allowed.includes(req.method)) {
      next(ShopifySandboxError.methodNotAllowed(req.method, match.allowed));
    } else next();
  }
}
