import { METHODS } from 'node:http';

interface ExpressLayer {
  route?: { methods: Record<string, boolean> };
  match(path: string): { keys: string[] } | false;
}

/** How a path relates to the app's routes: unknown, or known with the methods it takes. */
export type RouteMatch = { kind: 'unknown' } | { kind: 'known'; allowed: string[] };

/**
 * Which methods the routes of an Express app (a middleware's `req.app`) take on `path`, so an app can answer an unknown path (404) and a
 * wrong method (405 with `Allow`) in its own error shape instead of the framework's. A path that
 * names a route outright (no parameters) is that route's alone: `GET /v1/products/search` is not
 * read as `GET /v1/products/{skuId}` when only `POST /v1/products/search` exists.
 * Middleware are not routes here: mounted ones (`use()`) and those registered for every method
 * (`all()`, as Nest does for `forRoutes({ path: '*path', method: RequestMethod.ALL })`).
 */
export function routeMatch(expressApp: unknown, path: string): RouteMatch {
  const express = expressApp as { router?: { stack: ExpressLayer[] } };
  const literal = new Set<string>();
  const parametric = new Set<string>();
  for (const layer of express.router?.stack ?? []) {
    if (!layer.route) continue;
    const methods = Object.keys(layer.route.methods).filter((m) => m !== '_all');
    if (methods.length === 0 || layer.route.methods._all || methods.length >= METHODS.length) continue;
    const match = layer.match(path);
    if (!match) continue;
    for (const method of methods) (match.keys.length === 0 ? literal : parametric).add(method.toUpperCase());
  }
  const methods = literal.size > 0 ? literal : parametric;
  if (methods.size === 0) return { kind: 'unknown' };
  if (methods.has('GET')) methods.add('HEAD');
  return { kind: 'known', allowed: [...methods].sort() };
}
