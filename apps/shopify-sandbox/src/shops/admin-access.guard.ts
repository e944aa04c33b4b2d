import { type CanActivate, createParamDecorator, type ExecutionContext, Injectable } from '@nestjs/common';
import type { Request } from 'express';
import {
  INVALID_TOKEN_MESSAGE,
  ShopifyErrorCode,
  ShopifySandboxError,
} from '../http/shopify-sandbox.error.js';
import type { Shop } from './shop.js';
import { ShopRegistry } from './shop-registry.service.js';

export interface ShopRequest extends Request {
  shop?: Shop;
}

const API_VERSION = /^(\d{4}-(01|04|07|10)|unstable)$/;

/**
 * Admin API authentication, as Shopify does it: `X-Shopify-Access-Token` must be a shop's
 * token (401 otherwise), and picks the shop. When the Host header names a `*.myshopify.com`
 * shop, the token must be that shop's. Also answers 404 for a malformed API version.
 */
@Injectable()
export class AdminAccessGuard implements CanActivate {
  constructor(private readonly shops: ShopRegistry) {}

  canActivate(context: ExecutionContext): boolean {
    const request = context.switchToHttp().getRequest<ShopRequest>();
    const version = request.params.version;
    if (typeof version === 'string' && !API_VERSION.test(version)) {
      throw ShopifySandboxError.notFound();
    }
    const token = request.header('x-shopify-access-token');
    const shop = token ? this.shops.byToken(token) : undefined;
    const host = (request.header('host') ?? '').replace(/:\d+$/, '');
    if (!shop || (host.endsWith('.myshopify.com') && host !== shop.domain)) {
      throw new ShopifySandboxError(ShopifyErrorCode.UNAUTHORIZED, INVALID_TOKEN_MESSAGE);
    }
    request.shop = shop;
    return true;
  }
}

/** The shop an `AdminAccessGuard`-protected request was authenticated for. */
export const CurrentShop = createParamDecorator((_data: unknown, context: ExecutionContext): Shop => {
  const shop = context.switchToHttp().getRequest<ShopRequest>().shop;
  if (!shop) throw new Error('CurrentShop used on a route without AdminAccessGuard');
  return shop;
});
