import { randomUUID } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import type { Request } from 'express';
import { Clock } from '#lib/clock';
import { isShopDomain, type ShopifySandboxConfig } from '../config/shopify-sandbox.config.js';
import { ShopifySandboxError } from '../http/shopify-sandbox.error.js';
import { SANDBOX_CONFIG } from '../shopify-sandbox.tokens.js';
import { ShopRegistry } from '../shops/shop-registry.service.js';
import { AppRegistry } from './app-registry.service.js';
import { type PendingGrant, parseScopes, signedRedirect } from './authorization.js';
import { grantToken, type TokenParams, type TokenResponse } from './token-grants.js';

/** What `GET /admin/oauth/authorize` answers. */
export type AuthorizeOutcome =
  | { kind: 'redirect'; location: string }
  | { kind: 'grant-screen'; grant: PendingGrant }
  | { kind: 'error'; status: number; error: string; description: string };

/**
 * The OAuth side of the sandbox: the token endpoint, authorize requests and their approval by
 * the merchant (played by the control API, or at once with `SHOPIFY_SANDBOX_OAUTH_AUTO_APPROVE`).
 */
@Injectable()
export class OAuthService {
  private readonly pending = new Map<string, PendingGrant>();
  /** Scopes the merchant approved per shop and app; a covered re-authorization needs no approval. */
  private readonly approved = new Map<string, Set<string>>();

  constructor(
    private readonly apps: AppRegistry,
    private readonly shops: ShopRegistry,
    private readonly clock: Clock,
    @Inject(SANDBOX_CONFIG) private readonly config: ShopifySandboxConfig,
  ) {}

  /** The shop a request is for: its `Host` (`<shop>.myshopify.com`), else `?shop=`, else `X-Shopify-Shop-Domain`. */
  shopOf(request: Request): string {
    const host = (request.header('host') ?? '').replace(/:\d+$/, '');
    const query = typeof request.query.shop === 'string' ? request.query.shop : undefined;
    const domain = isShopDomain(host) ? host : (query ?? request.header('x-shopify-shop-domain'));
    if (!domain) {
      throw ShopifySandboxError.oauth(
        'invalid_request',
        'No shop: send the request to <shop>.myshopify.com, or name it in ?shop= or X-Shopify-Shop-Domain',
      );
    }
    if (!this.shops.byDomain(domain)) throw ShopifySandboxError.notFound();
    return domain;
  }

  token(params: TokenParams, shop: string): TokenResponse {
    return grantToken(params, shop, this.apps, this.clock.now());
  }

  authorize(shop: string, query: Record<string, string | undefined>): AuthorizeOutcome {
    const clientId = query.client_id ?? '';
    const app = this.apps.app(clientId);
    const refuse = (description: string) =>
      ({ kind: 'error', status: 400, error: 'invalid_request', description }) as const;
    if (!app) return refuse(`Could not find Shopify API application with api_key ${clientId}`);
    const redirectUri = query.redirect_uri ?? '';
    if (!app.redirectUrls.includes(redirectUri)) return refuse('The redirect_uri is not whitelisted');
    if (query['grant_options[]'] === 'per-user') {
      return refuse('online access (grant_options[]=per-user) is not implemented by shopify-sandbox');
    }
    const grant: PendingGrant = {
      id: randomUUID(),
      shop,
      clientId,
      scopes: parseScopes(query.scope),
      redirectUri,
      state: query.state ?? null,
      requestedAt: new Date(this.clock.now()).toISOString(),
    };
    const granted = this.approved.get(key(shop, clientId));
    const covered =
      this.apps.isInstalled(shop, clientId) && granted && grant.scopes.every((s) => granted.has(s));
    if (covered || this.config.oauth.autoApprove)
      return { kind: 'redirect', location: this.approveGrant(grant) };
    this.pending.set(grant.id, grant);
    return { kind: 'grant-screen', grant };
  }

  pendingGrants(shop: string): PendingGrant[] {
    return [...this.pending.values()].filter((grant) => grant.shop === shop);
  }

  /** The merchant clicks Install: the app is installed and the browser sent to the signed redirect. */
  approve(shop: string, id: string): string {
    const grant = this.take(shop, id);
    return this.approveGrant(grant);
  }

  /** The merchant cancels: no redirect, nothing installed. */
  decline(shop: string, id: string): void {
    this.take(shop, id);
  }

  /** Forgets the approved scopes (uninstall): the next authorize asks the merchant again. */
  forget(shop: string, clientId: string): void {
    this.approved.delete(key(shop, clientId));
  }

  private take(shop: string, id: string): PendingGrant {
    const grant = this.pending.get(id);
    if (!grant || grant.shop !== shop) throw ShopifySandboxError.notFound();
    this.pending.delete(id);
    return grant;
  }

  private approveGrant(grant: PendingGrant): string {
    const app = this.apps.app(grant.clientId);
    if (!app) throw ShopifySandboxError.notFound();
    this.apps.install(grant.shop, grant.clientId);
    const approved = this.approved.get(key(grant.shop, grant.clientId)) ?? new Set<string>();
    for (const scope of grant.scopes) approved.add(scope);
    this.approved.set(key(grant.shop, grant.clientId), approved);
    const now = this.clock.now();
    const code = this.apps.tokens.issueCode(grant.shop, grant.clientId, grant.scopes, grant.redirectUri, now);
    return signedRedirect(app, grant.redirectUri, { code, shop: grant.shop, state: grant.state, now });
  }
}

function key(shop: string, clientId: string): string {
  return `${shop}\u0000${clientId}`;
}
