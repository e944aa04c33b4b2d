import {
  type CanActivate,
  createParamDecorator,
  type ExecutionContext,
  Inject,
  Injectable,
} from '@nestjs/common';
import type { Request, Response } from 'express';
import { Clock } from '#lib/clock';
import { AppRegistry } from '../apps/app-registry.service.js';
import { answeringVersion } from '../common/api-versions.js';
import type { ShopifySandboxConfig } from '../config/shopify-sandbox.config.js';
import {
  INVALID_TOKEN_MESSAGE,
  ShopifyErrorCode,
  ShopifySandboxError,
} from '../http/shopify-sandbox.error.js';
import { SANDBOX_CONFIG } from '../shopify-sandbox.tokens.js';
import { outcomeOf } from './admin-request-log.js';
import type { Shop } from './shop.js';
import { ShopRegistry } from './shop-registry.service.js';

export interface ShopRequest extends Request {
  shop?: Shop;
  /** The API version answering this request (`X-Shopify-API-Version`). */
  apiVersion?: string;
  /** The app whose token authenticated the request. */
  clientId?: string;
  /** The access scopes of the request's token. */
  scopes?: readonly string[];
}

/**
 * Admin API authentication, as Shopify does it: `X-Shopify-Access-Token` must be a live token
 * of an installed app (a seeded static token, or one the token endpoint issued and that has not
 * expired nor been revoked; 401 otherwise), and picks the shop and the app. When the Host header names a `*.myshopify.com`
 * shop, the token must be that shop's. Also picks the version that answers the path's
 * `{version}` (a retired one falls forward to the oldest supported version) and says it in
 * `X-Shopify-API-Version`; a malformed version, or one newer than every supported one, gets 404.
 * A refused request is logged on the shop it names (Host, else `X-Shopify-Shop-Domain`), so a
 * shop's 401 storm shows in its request log; handlers log the requests they answer.
 */
@Injectable()
export class AdminAccessGuard implements CanActivate {
  constructor(
    private readonly apps: AppRegistry,
    @Inject(SANDBOX_CONFIG) private readonly config: ShopifySandboxConfig,
    private readonly shops: ShopRegistry,
    private readonly clock: Clock,
  ) {}

  canActivate(context: ExecutionContext): boolean {
    const request = context.switchToHttp().getRequest<ShopRequest>();
    try {
      return this.admit(context, request);
    } catch (error) {
      if (error instanceof ShopifySandboxError) this.logRefusal(request, error.status);
      throw error;
    }
  }

  private admit(context: ExecutionContext, request: ShopRequest): boolean {
    const version = request.params.version;
    if (typeof version === 'string') {
      const answering = answeringVersion(version, this.config.apiVersions);
      if (answering === undefined) throw ShopifySandboxError.notFound();
      request.apiVersion = answering;
      context.switchToHttp().getResponse<Response>().setHeader('X-Shopify-API-Version', answering);
    }
    const token = request.header('x-shopify-access-token');
    const caller = token ? this.apps.authenticate(token) : undefined;
    const host = (request.header('host') ?? '').replace(/:\d+$/, '');
    if (!caller || (host.endsWith('.myshopify.com') && host !== caller.shop.domain)) {
      throw new ShopifySandboxError(ShopifyErrorCode.UNAUTHORIZED, INVALID_TOKEN_MESSAGE);
    }
    request.shop = caller.shop;
    request.clientId = caller.clientId;
    request.scopes = caller.scopes;
    return true;
  }

  private logRefusal(request: ShopRequest, httpStatus: number): void {
    const host = (request.header('host') ?? '').replace(/:\d+$/, '');
    const named = host.endsWith('.myshopify.com') ? host : request.header('x-shopify-shop-domain');
    const shop = named ? this.shops.byDomain(named) : undefined;
    shop?.adminRequests.add({
      at: new Date(this.clock.now()).toISOString(),
      api: request.path.endsWith('/graphql.json') ? 'graphql' : 'rest',
      method: request.method,
      path: request.path,
      operationType: null,
      operationName: null,
      rootFields: [],
      variables: null,
      outcome: outcomeOf(httpStatus),
      httpStatus,
      requestedQueryCost: null,
      actualQueryCost: null,
    });
  }
}

/** The shop an `AdminAccessGuard`-protected request was authenticated for. */
export const CurrentShop = createParamDecorator((_data: unknown, context: ExecutionContext): Shop => {
  const shop = context.switchToHttp().getRequest<ShopRequest>().shop;
  if (!shop) throw new Error('CurrentShop used on a route without AdminAccessGuard');
  return shop;
});
