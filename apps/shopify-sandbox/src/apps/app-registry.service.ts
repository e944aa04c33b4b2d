import { timingSafeEqual } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { Clock } from '#lib/clock';
import type { ShopifySandboxConfig } from '../config/shopify-sandbox.config.js';
import { SANDBOX_CONFIG } from '../shopify-sandbox.tokens.js';
import type { Shop } from '../shops/shop.js';
import { ShopRegistry } from '../shops/shop-registry.service.js';
import type { AppConfig } from './app-config.js';
import { TokenStore } from './token-store.js';

/** Who an Admin API token speaks for: a shop and an app. */
export interface Caller {
  shop: Shop;
  clientId: string;
  /** The access scopes the token carries (`currentAppInstallation.accessScopes`). */
  scopes: readonly string[];
}

/**
 * The apps, where they are installed, and their tokens. Every app is installed on every shop
 * until uninstalled through the control API. The seeded shops' static tokens are the default
 * app's (legacy custom app tokens): they work until that app is uninstalled from the shop.
 */
@Injectable()
export class AppRegistry {
  readonly tokens = new TokenStore();
  private readonly apps = new Map<string, AppConfig>();
  private readonly uninstalled = new Set<string>();
  /** Shops whose static token died with an uninstall of the default app. */
  private readonly staticRevoked = new Set<string>();
  readonly defaultClientId: string;

  constructor(
    @Inject(SANDBOX_CONFIG) private readonly config: ShopifySandboxConfig,
    private readonly shops: ShopRegistry,
    private readonly clock: Clock,
  ) {
    config.apps.forEach((app, index) => {
      // The default app's secret is always the app secret (the harness may override it alone).
      const secret = index === 0 ? config.appSecret : app.clientSecret;
      this.apps.set(app.clientId, structuredClone({ ...app, clientSecret: secret }));
    });
    this.defaultClientId = config.apps[0]?.clientId ?? '';
  }

  list(): AppConfig[] {
    return [...this.apps.values()];
  }

  app(clientId: string): AppConfig | undefined {
    return this.apps.get(clientId);
  }

  /** The secret that signs the app's webhooks (the default app's when none is named). */
  secretOf(clientId: string | undefined): string {
    return this.apps.get(clientId ?? this.defaultClientId)?.clientSecret ?? this.config.appSecret;
  }

  /** Constant-time check of a client secret. */
  secretMatches(app: AppConfig, secret: string): boolean {
    const given = Buffer.from(secret);
    const expected = Buffer.from(app.clientSecret);
    return given.length === expected.length && timingSafeEqual(given, expected);
  }

  isInstalled(shop: string, clientId: string): boolean {
    return this.apps.has(clientId) && !this.uninstalled.has(installKey(shop, clientId));
  }

  /** Installs the app (again); the static token stays dead once revoked. */
  install(shop: string, clientId: string): void {
    this.uninstalled.delete(installKey(shop, clientId));
  }

  /** Uninstalls the app: every token of it on the shop dies at once. */
  uninstall(shop: string, clientId: string): void {
    this.uninstalled.add(installKey(shop, clientId));
    this.tokens.revokeAll(shop, clientId);
    if (clientId === this.defaultClientId) this.staticRevoked.add(shop);
  }

  /** The shop and app of an Admin API token, or undefined: unknown, expired, revoked or uninstalled. */
  authenticate(token: string): Caller | undefined {
    const grant = this.tokens.resolve(token, this.clock.now());
    if (grant) {
      const shop = this.shops.byDomain(grant.shop);
      return shop && this.isInstalled(grant.shop, grant.clientId)
        ? { shop, clientId: grant.clientId, scopes: grant.scopes }
        : undefined;
    }
    const shop = this.shops.byToken(token);
    if (!shop || this.staticRevoked.has(shop.domain)) return undefined;
    // A static token carries its app's configured scopes as they are now (`PUT /sandbox/apps/...`).
    return {
      shop,
      clientId: this.defaultClientId,
      scopes: this.apps.get(this.defaultClientId)?.scopes ?? [],
    };
  }

  /** Lifetime of an expiring access token: Shopify's, capped by `SHOPIFY_SANDBOX_TOKEN_TTL_S`. */
  ttl(shopifySeconds: number): number {
    const cap = this.config.oauth.tokenTtlS;
    return cap === null ? shopifySeconds : Math.min(cap, shopifySeconds);
  }
}

function installKey(shop: string, clientId: string): string {
  return `${shop}\u0000${clientId}`;
}
