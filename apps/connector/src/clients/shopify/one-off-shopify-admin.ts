import type { Clock } from '#lib/clock';
import type { ConnectorConfig } from '../../platform/config/connector.config.js';
import { OneOffShopTokens } from '../../shops/one-off-shop-tokens.js';
import { ShopFetchRoutes } from '../../shops/shop-fetch-routes.service.js';
import { Shops } from '../../shops/shops.js';
import { TokenGrants } from '../../shops/token-grants.service.js';
import { ShopifyAdmin } from './shopify-admin.service.js';

/** Why: the command line's Admin API clients, without the server (`OneOffShopTokens`); `close` unroutes. */
export function oneOffShopifyAdmin(
  config: ConnectorConfig,
  clock: Clock,
): { shopify: ShopifyAdmin; close: () => void } {
  const shops = new Shops(config.shops);
  const routes = new ShopFetchRoutes(shops, config.shopify, null);
  const grants = new TokenGrants(config.http, config.shopify);
  const tokens = new OneOffShopTokens(config.shops, grants, () => clock.now());
  const shopify = new ShopifyAdmin(config.http, config.shopify, shops, tokens, grants, routes, clock);
  return { shopify, close: () => routes.onModuleDestroy() };
}
