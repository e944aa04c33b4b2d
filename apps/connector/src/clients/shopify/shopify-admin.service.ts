import { Inject, Injectable, Logger, type OnModuleDestroy, Optional } from '@nestjs/common';
import { LogSeverity, Session, shopifyApi } from '@shopify/shopify-api';
import { Clock } from '#lib/clock';
import { SHOPIFY_FETCH } from '../../connector.tokens.js';
import type { ShopConfig } from '../../platform/config/connector.config.js';
import { HttpSettings, ShopifySettings } from '../../platform/config/settings.js';
import { Shops } from '../../shops/shops.js';
import { SharedCostBuckets } from './shared-cost-buckets.js';
import { SharedCostPacer } from './shared-cost-pacer.js';
import { ShopAdminClient } from './shop-admin.client.js';
import { originFetch, routeShopFetch } from './shop-fetch.router.js';

/**
 * Admin GraphQL clients, one per configured shop, built on `@shopify/shopify-api` with the
 * shop's token and API version. Where the shop's requests go is decided once here: Shopify, the
 * configured admin origin (local stack), or a test's fetch.
 */
@Injectable()
export class ShopifyAdmin implements OnModuleDestroy {
  private readonly logger = new Logger('ShopifyAdmin');
  private readonly clients = new Map<string, ShopAdminClient>();
  private readonly unroutes: Array<() => void> = [];

  constructor(
    private readonly httpSettings: HttpSettings,
    shopifySettings: ShopifySettings,
    shops: Shops,
    @Inject(SHOPIFY_FETCH) fetchOverride: typeof fetch | null,
    clock: Clock,
    /** The replicas' shared cost buckets (absent outside the app: the CLI paces in-process). */
    @Optional() buckets?: SharedCostBuckets,
  ) {
    const fetchFn =
      fetchOverride ??
      (shopifySettings.adminOrigin !== null ? originFetch(shopifySettings.adminOrigin) : null);
    for (const shop of shops.all) {
      if (fetchFn !== null) this.unroutes.push(routeShopFetch(shop.domain, fetchFn));
      this.clients.set(
        shop.domain,
        new ShopAdminClient(
          shop.domain,
          this.graphqlFor(shop),
          clock,
          shopifySettings.throttleRetries,
          buckets ? new SharedCostPacer(shop.domain, buckets, clock) : undefined,
        ),
      );
    }
  }

  /** The shop's client; the shop must be configured. */
  forShop(domain: string): ShopAdminClient {
    const client = this.clients.get(domain);
    if (!client) throw new Error(`No Admin API client for shop ${domain}`);
    return client;
  }

  onModuleDestroy(): void {
    for (const unroute of this.unroutes.splice(0)) unroute();
  }

  private graphqlFor(shop: ShopConfig) {
    const api = shopifyApi({
      apiSecretKey: shop.webhookSecrets[0]?.reveal() ?? 'unused',
      adminApiAccessToken: shop.accessToken.reveal(),
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
    const session = new Session({
      id: `offline_${shop.domain}`,
      shop: shop.domain,
      state: '',
      isOnline: false,
    });
    return new api.clients.Graphql({ session });
  }
}
