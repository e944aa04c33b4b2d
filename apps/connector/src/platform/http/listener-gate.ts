import type { IncomingMessage } from 'node:http';
import type { NextFunction, Response } from 'express';
import { ConnectorError, type ConnectorErrorBody } from './connector.error.js';
import { ConnectorErrorCode } from './connector-error-code.js';
import { type ConnectorRequest, requestIdOf } from './request-id.js';
import type { TrustedNetworks } from './trusted-networks.js';

/** Which listener a route belongs to: `public` (Shopify's), `private` (the operators'), or `both`. */
export type RouteSide = 'public' | 'private' | 'both';

/** What Shopify reaches: the webhook door and the install (OAuth) routes. */
const PUBLIC_ROUTES = /^\/(?:webhooks\/|auth\/shopify(?:\/|$))/i;
/**
 * The probes of load balancers and orchestrators, on either listener. `GET /health` itself is
 * private: its dependencies name the catalog's URL, its key's fingerprint and every shop.
 */
const BOTH_ROUTES = /^\/health\/(?:live|ready)\/?$/i;

/**
 * The side of a path (Express matches routes case-insensitively, so this does too). Anything not
 * listed is private: `/admin/*` (the API, the web view, bull-board), `/metrics`, `/docs`,
 * `/openapi.json`, `/health` (with its dependencies), `/` and every path no route serves.
 */
export function routeSide(path: string): RouteSide {
  if (PUBLIC_ROUTES.test(path)) return 'public';
  if (BOTH_ROUTES.test(path)) return 'both';
  return 'private';
}

/** How the gate tells where a request arrived. */
export interface ListenerGateOptions {
  /** True when the private routes have a listener of their own (`CONNECTOR_ADMIN_PORT`). */
  split: boolean;
  /** Whether the request arrived on the private listener. */
  arrivedPrivately(req: IncomingMessage): boolean;
  trusted: TrustedNetworks;
}

/**
 * Express middleware, before every route: a route asked on the wrong side answers 404 in the
 * connector's error shape, as a path no route serves would (it reveals nothing). With two
 * listeners: the private routes only on the private one, the public routes only on the public
 * one. With one port: the private routes only to requests from inside (`TrustedNetworks.fromInside`).
 */
export function listenerGate(options: ListenerGateOptions) {
  return (req: ConnectorRequest, res: Response, next: NextFunction): void => {
    const side = routeSide(req.path);
    const refused =
      side !== 'both' &&
      (options.split
        ? (side === 'private') !== options.arrivedPrivately(req)
        : side === 'private' && !options.trusted.fromInside(req));
    if (!refused) {
      next();
      return;
    }
    const error = new ConnectorError(ConnectorErrorCode.NOT_FOUND, `No route ${req.method} ${req.path}.`);
    const body: ConnectorErrorBody = {
      error: { code: error.code, message: error.message, requestId: requestIdOf(req, res) },
    };
    res.status(error.status).json(body);
  };
}
