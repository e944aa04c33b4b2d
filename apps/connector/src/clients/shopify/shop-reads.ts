import { APP_ACCESS_SCOPES_QUERY } from './documents/app-access-scopes.query.js';
import { CHECK_SHOP_QUERY } from './documents/check-shop.query.js';
import { SHOP_CURRENCY_QUERY } from './documents/shop-currency.query.js';
import { SHOP_PING_QUERY } from './documents/shop-ping.query.js';
import type { ShopAdminClient } from './shop-admin.client.js';

/** Why: the one place `SHOP_CURRENCY_QUERY` runs: the shop's currency code (1 point). */
export async function readShopCurrency(admin: Pick<ShopAdminClient, 'request'>): Promise<string> {
  const data = await admin.request<{ shop: { currencyCode: string } }>(SHOP_CURRENCY_QUERY, {}, 1);
  return data.shop.currencyCode;
}

/** Why: the one place `SHOP_PING_QUERY` runs: the readiness probe's cheapest query; throws what Shopify answered. */
export async function pingShop(admin: Pick<ShopAdminClient, 'request'>): Promise<void> {
  await admin.request(SHOP_PING_QUERY, {}, 1);
}

/** Why: the one place `CHECK_SHOP_QUERY` runs: `check-config`'s proof that the token works; throws otherwise. */
export async function checkShopToken(admin: Pick<ShopAdminClient, 'request'>): Promise<void> {
  await admin.request(CHECK_SHOP_QUERY, {}, 1);
}

/** Why: the one place `APP_ACCESS_SCOPES_QUERY` runs: the scopes the shop granted the connector's token (1 point). */
export async function readGrantedScopes(admin: Pick<ShopAdminClient, 'request'>): Promise<string[]> {
  const data = await admin.request<{ currentAppInstallation: { accessScopes: Array<{ handle: string }> } }>(
    APP_ACCESS_SCOPES_QUERY,
    {},
    1,
  );
  return data.currentAppInstallation.accessScopes.map((scope) => scope.handle);
}
