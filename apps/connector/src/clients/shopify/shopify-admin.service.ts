import { Injectable, Logger, Optional } from '@nestjs/common';
import { type GraphqlClient, LogSeverity, Session, type Shopify, shopifyApi } from '@shopify/shopify-api';
import { Clock } from '#lib/clock';
import type { ShopConfig } from '../../platform/config/connector.config.js';
import { HttpSettings, ShopifySettings } from '../../platform/config/settings.js';
import { ShopFetchRoutes } from '../../shops/shop-fetch-routes.service.js';
import { ShopTokenSource } from '../../shops/shop-token-source.js';
import { Shops } from '../../shops/shops.js';
import { TokenGrants } from '../../shops/token-grants.service.js';
import { SharedCostBuckets } from './shared-cost-buckets.repository.js';
import { SharedCostPacer } from './shared-cost-pacer.js';
import { ShopAdminClient, type ShopGraphqlSource } from './shop-admin.client.js';

/**
 * Admin GraphQL clients, one per served shop (made at its first use), built on `@shopify/shopify-api` with the
 * shop's API version. Each request asks `ShopTokenSource` for the shop's token of the moment (a static
 * one, or a granted one renewed before it expires and once after a 401); where the requests go
 * (Shopify, the local stack's sandbox, a test's fetch) is `ShopFetchRoutes`'.
 */
@Injectable()
export class ShopifyAdmin {
  private readonly logger = new Logger('ShopifyAdmin');
  private readonly clients = new Map<string, ShopAdminClient>();

  constructor(
    private readonly httpSettings: HttpSettings,
    private readonly shopifySettings: ShopifySettings,
    private readonly shops: Shops,
    private readonly tokens: ShopTokenSource,
    private readonly grants: TokenGrants,
    _routes: ShopFetchRoutes,
    private readonly clock: Clock,
    /** The replicas' shared cost buckets (absent outside the app: the CLI paces in-process). */
    @Optional() private readonly buckets?: SharedCostBuckets,
  ) {}

  /** The shop's client (made at its first use); the shop must be served. */
  forShop(domain: string): ShopAdminClient {
    const existing = this.clients.get(domain);
    if (existing) return existing;
    const shop = this.shops.find(domain);
    if (!shop) throw new Error(`No Admin API client for shop ${domain}`);
    const client = new ShopAdminClient(
      shop.domain,
      this.sourceFor(shop),
      this.clock,
      this.shopifySettings.throttleRetries,
      this.buckets ? new SharedCostPacer(shop.domain, this.buckets, this.clock) : undefined,
    );
    this.clients.set(shop.domain, client);
    return client;
  }

  private sourceFor(shop: ShopConfig): ShopGraphqlSource {
    const staticToken = shop.auth.kind === 'static' ? shop.auth.accessToken.reveal() : null;
    const staticApi = staticToken === null ? null : this.staticApi(shop, staticToken);
    const id = `offline_${shop.domain}`;
    return {
      client: async (): Promise<{ graphql: GraphqlClient; token: string }> => {
        const token = await this.tokens.accessToken(shop.domain);
        // A static shop migrated to expiring tokens gets granted ones: its app's instance sends them.
        const api = staticApi !== null && token === staticToken ? staticApi : this.grants.api(shop);
        const session = new Session({
          id,
          shop: shop.domain,
          state: '',
          isOnline: false,
          accessToken: token,
        });
        return { graphql: new api.clients.Graphql({ session }), token };
      },
      renewAfterUnauthorized: async (token) =>
        (await this.tokens.afterUnauthorized(shop.domain, token)) !== null,
    };
  }

  /** A legacy custom app's library instance: its static token. */
  private staticApi(shop: ShopConfig, accessToken: string): Shopify {
    return shopifyApi({
      apiSecretKey: shop.webhookSecrets[0]?.reveal() ?? 'unused',
      adminApiAccessToken: accessToken,
      isCustomStoreApp: true,
      isEmbeddedApp: false,
      hostName: new URL(this.httpSettings.publicUrl ?? 'http://localhost').host,
      apiVersion: shop.apiVersion,
      logger: {
        level: LogSeverity.Warning,
        log: async (severity, message) => {
          if (severity <= LogSeverity.Error) this.logger.error(message);
          else this.logger.warn(message);
        },
      },
    });
  }
}
