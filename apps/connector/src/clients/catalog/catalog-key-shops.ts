import type { Shops } from '../../shops/shops.js';
import type { CatalogClients } from './catalog-clients.service.js';

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

/** One catalog key as the operators see it: account id (never the key), its fingerprint, its shops. */
export interface CatalogKeyGroup {
  id: string;
  fingerprint: string;
  shops: string[];
}

/** Why: the web view's shops page lists each catalog key with its shops, to pause or resume them together. */
export function catalogKeyGroups(shops: Shops, catalogs: CatalogClients): CatalogKeyGroup[] {
  const groups = new Map<string, CatalogKeyGroup>();
  for (const shop of shops.all) {
    if (!catalogs.hasKey(shop.domain)) continue;
    const id = catalogs.forShop(shop.domain).id;
    const group = groups.get(id) ?? { id, fingerprint: id.slice(id.lastIndexOf('#') + 1), shops: [] };
    group.shops.push(shop.domain);
    groups.set(id, group);
  }
  return [...groups.values()];
}
