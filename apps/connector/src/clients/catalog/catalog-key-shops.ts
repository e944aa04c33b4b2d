import type { Shops } from '../../shops/shops.js';
import type { CatalogClients } from './catalog-clients.js';

/**
 * Why: pausing "a catalog key" (admin API and web view) means pausing every shop whose catalog
 * account is that key. `key` is the account id (`<baseUrl>#<fingerprint>`, never the key itself)
 * or its fingerprint alone; shops without a key are on no account.
 */
export function catalogKeyShops(shops: Shops, catalogs: CatalogClients, key: string): string[] {
  return shops.all
    .filter((shop) => catalogs.hasKey(shop.domain))
    .filter((shop) => {
      const id = catalogs.forShop(shop.domain).id;
      return id === key || id.slice(id.lastIndexOf('#') + 1) === key;
    })
    .map((shop) => shop.domain);
}
