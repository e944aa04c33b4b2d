import { restTime } from '../common/shop-time.js';
import type { Shop } from '../shops/shop.js';

/**
 * The `app/uninstalled` payload: the shop in the REST `Shop` resource's shape, limited to the
 * fields the sandbox knows (the same values as the GraphQL `shop` query).
 */
export function shopPayload(shop: Shop, now: number, timeZone: string): Record<string, unknown> {
  return {
    id: shop.id,
    name: shop.name,
    email: `owner@${shop.domain}`,
    domain: shop.domain,
    myshopify_domain: shop.domain,
    currency: shop.currencyCode,
    iana_timezone: timeZone,
    updated_at: restTime(now, timeZone),
  };
}
