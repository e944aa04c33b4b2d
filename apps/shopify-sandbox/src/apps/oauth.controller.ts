import { Controller, Get, HttpCode, HttpStatus, Post, Req, Res } from '@nestjs/common';
import type { Request, Response } from 'express';
import { Clock } from '#lib/clock';
import { ShopifySandboxError } from '../http/shopify-sandbox.error.js';
import { outcomeOf } from '../shops/admin-request-log.js';
import { ShopRegistry } from '../shops/shop-registry.service.js';
import { AppRegistry } from './app-registry.service.js';
import { grantScreen, oauthErrorPage } from './authorization.js';
import { OAuthService } from './oauth.service.js';
import { tokenParams } from './oauth-params.js';
import type { TokenResponse } from './token-grants.js';

/**
 * Shopify's OAuth endpoints on a shop: `POST /admin/oauth/access_token` (client credentials,
 * authorization code, refresh token, token exchange migrating a non-expiring offline token) and
 * `GET /admin/oauth/authorize`. The shop is the one of the
 * `Host` header, `?shop=` or `X-Shopify-Shop-Domain` (README, "Apps and tokens"). Token calls
 * on a known shop go to its request log (`api: "oauth"`), refused ones included.
 */
@Controller('admin/oauth')
export class OAuthController {
  constructor(
    private readonly oauth: OAuthService,
    private readonly apps: AppRegistry,
    private readonly shops: ShopRegistry,
    private readonly clock: Clock,
  ) {}

  @Post('access_token')
  @HttpCode(HttpStatus.OK)
  async accessToken(@Req() request: Request): Promise<TokenResponse> {
    const shop = this.oauth.shopOf(request);
    try {
      const answer = this.oauth.token(await tokenParams(request), shop);
      this.logTokenCall(shop, request, HttpStatus.OK);
      return answer;
    } catch (error) {
      this.logTokenCall(shop, request, error instanceof ShopifySandboxError ? error.status : 500);
      throw error;
    }
  }

  @Get('authorize')
  authorize(@Req() request: Request, @Res() response: Response): void {
    const shop = this.oauth.shopOf(request);
    const query: Record<string, string | undefined> = {};
    for (const [name, value] of Object.entries(request.query)) {
      if (typeof value === 'string') query[name] = value;
      else if (Array.isArray(value) && typeof value[0] === 'string') query[`${name}[]`] = value[0];
    }
    const outcome = this.oauth.authorize(shop, query);
    if (outcome.kind === 'redirect') {
      response.redirect(302, outcome.location);
      return;
    }
    response.type('html');
    if (outcome.kind === 'error') {
      response.status(outcome.status).send(oauthErrorPage(outcome.error, outcome.description));
      return;
    }
    const app = this.apps.app(outcome.grant.clientId);
    response.setHeader('X-Sandbox-Grant-Id', outcome.grant.id);
    response.status(200).send(app ? grantScreen(outcome.grant, app) : '');
  }

  private logTokenCall(domain: string, request: Request, httpStatus: number): void {
    this.shops.byDomain(domain)?.adminRequests.add({
      at: new Date(this.clock.now()).toISOString(),
      api: 'oauth',
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
