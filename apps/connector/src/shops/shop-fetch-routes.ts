import { Inject, Injectable, type OnModuleDestroy } from '@nestjs/common';
import { SHOPIFY_FETCH } from '../connector.tokens.js';
import { ShopifySettings } from '../platform/config/settings.js';
import { originFetch, routeShopFetch } from './shop-fetch.router.js';
import { Shops } from './shops.js';

/**
 * Why: where each shop's requests to Shopify go (its Admin API and its token endpoint alike) is
 * decided once, before any call: Shopify itself, the configured admin origin (local stack), or a
 * test's fetch. Whoever calls Shopify for a shop injects this first.
 */
@Injectable()
export class ShopFetchRoutes implements OnModuleDestroy {
  private readonly unroutes: Array<() => void> = [];

  constructor(
    shops: Shops,
    settings: ShopifySettings,
    @Inject(SHOPIFY_FETCH) fetchOverride: typeof fetch | null,
  ) {
    const fetchFn =
      fetchOverride ?? (settings.adminOrigin !== null ? originFetch(settings.adminOrigin) : null);
    if (fetchFn === null) return;
    for (const shop of shops.all) this.unroutes.push(routeShopFetch(shop.domain, fetchFn));
  }

  onModuleDestroy(): void {
    for (const unroute of this.unroutes.splice(0)) unroute();
  }
}
