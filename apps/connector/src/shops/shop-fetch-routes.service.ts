import { Inject, Injectable, type OnModuleDestroy } from '@nestjs/common';
import { SHOPIFY_FETCH } from '../connector.tokens.js';
import { ShopifySettings } from '../platform/config/settings.js';
import { originFetch, routeShopFetch } from './shop-fetch.router.js';
import { Shops } from './shops.js';

/**
 * Why: where each shop's requests to Shopify go (its Admin API and its token endpoint alike) is
 * decided once, before any call: Shopify itself, the configured admin origin (local stack), or a
 * test's fetch. Whoever calls Shopify for a shop injects this first; a shop that installs the
 * app later is routed when it joins, or by the install itself (`route`) before its first grant.
 */
@Injectable()
export class ShopFetchRoutes implements OnModuleDestroy {
  private readonly unroutes = new Map<string, () => void>();
  private readonly fetchFn: typeof fetch | null;

  constructor(
    shops: Shops,
    settings: ShopifySettings,
    @Inject(SHOPIFY_FETCH) fetchOverride: typeof fetch | null,
  ) {
    this.fetchFn =
      fetchOverride ?? (settings.adminOrigin !== null ? originFetch(settings.adminOrigin) : null);
    for (const shop of shops.all) this.route(shop.domain);
    shops.watch((shop) => this.route(shop.domain));
  }

  /** Sends the shop's requests where this connector's go (once per shop; nothing for Shopify itself). */
  route(domain: string): void {
    if (this.fetchFn === null || this.unroutes.has(domain)) return;
    this.unroutes.set(domain, routeShopFetch(domain, this.fetchFn));
  }

  onModuleDestroy(): void {
    for (const unroute of this.unroutes.values()) unroute();
    this.unroutes.clear();
  }
}
