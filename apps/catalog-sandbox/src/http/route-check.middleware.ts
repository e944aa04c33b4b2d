import { Injectable, type NestMiddleware } from '@nestjs/common';
import type { NextFunction, Request, Response } from 'express';
import { routeMatch } from '#lib/app-shell';
import { CatalogApiError } from './catalog-api.error.js';

/**
 * Before any credential or body is read: an unknown path answers 404 `not_found`, a known path
 * called with another method 405 `method_not_allowed` with `Allow`, both in the envelope. A path
 * that names a route outright is never read as a parameter (`GET /v1/products/search` is 405).
 */
@Injectable()
export class RouteCheckMiddleware implements NestMiddleware {
  use(req: Request, _res: Response, next: NextFunction): void {
    const path = new URL(req.originalUrl, 'http://sandbox').pathname;
    const match = routeMatch(req.app, path);
    if (match.kind === 'unknown') next(CatalogApiError.routeNotFound(req.method, path));
    else if (!match.allowed.includes(req.method)) {
      next(CatalogApiError.methodNotAllowed(req.method, path, match.allowed));
    } else next();
  }
}
