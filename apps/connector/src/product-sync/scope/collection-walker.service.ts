import { Injectable, Logger } from '@nestjs/common';
import { SyncEnqueuer } from '../../intake/sync-enqueuer.service.js';
import { scopeKey } from '../../mapping/product-scope.js';
import { ShopMappings } from '../../mapping/shop-mappings.service.js';
import { SyncSettings } from '../../platform/config/settings.js';
import type { ShopConfig } from '../../platform/config/shop-config.js';
import { Shops } from '../../shops/shops.js';
import { SkuMapRepository } from '../sku-map/sku-map.repository.js';
import { ScopeProducts } from './scope-products.service.js';
import { ShopScopeRepository } from './shop-scope.repository.js';

/** What one walk of a shop's scoped collections did. */
export interface CollectionWalk {
  shop: string;
  /** Scoped collections walked (gids). */
  collections: number;
  /** Products whose membership changed since the last walk (or, at the first, differs from the sku map). */
  enqueued: string[];
}

/**
 * Why: putting a product in or out of a collection changes the collection, never the product (no
 * `products/update`, the same `updated_at`), so neither the webhooks of the product nor the
 * reconciliation see it. Each scoped collection's members are read (a `collection_id:` search)
 * and compared with its members at the last walk, or, at the first walk under a scope, with the
 * sku map; each product that came or went is synced (reason `scope`) and the job decides.
 */
@Injectable()
export class CollectionWalker {
  private readonly logger = new Logger('CollectionWalker');

  constructor(
    private readonly shops: Shops,
    private readonly mappings: ShopMappings,
    private readonly scopes: ShopScopeRepository,
    private readonly products: ScopeProducts,
    private readonly map: SkuMapRepository,
    private readonly enqueuer: SyncEnqueuer,
    private readonly settings: SyncSettings,
  ) {}

  /** Walks these shops (every shop served by default) whose ready mapping scopes collections. */
  async walkAll(shops: readonly ShopConfig[] = this.shops.all): Promise<CollectionWalk[]> {
    const walks: CollectionWalk[] = [];
    for (const shop of shops) {
      const walk = await this.walk(shop.domain);
      if (walk) walks.push(walk);
    }
    return walks;
  }

  /** Walks one shop's scoped collections; null when its mapping is not ready or scopes none. */
  async walk(shop: string): Promise<CollectionWalk | null> {
    const scope = this.mappings.mapping(shop)?.file.scope ?? null;
    if (!scope || scope.collections.length === 0) return null;
    // Walks compare under the scope in effect; a changed scope is the boot comparison's (first).
    if ((await this.scopes.appliedKey(shop)) !== scopeKey(scope, this.settings.statuses)) return null;
    const ids = await this.products.collectionIds(shop, scope);
    let synced: Set<string> | null = null;
    const changed = new Set<string>();
    for (const id of ids) {
      const members = await this.products.search(
        shop,
        `collection_id:${id.replace(/^gid:\/\/shopify\/Collection\//, '')}`,
      );
      let before = await this.scopes.members(shop, id);
      if (before === null) {
        synced ??= await this.map.syncedProducts(shop);
        before = synced;
      }
      for (const productId of members) if (!before.has(productId)) changed.add(productId);
      for (const productId of before) if (!members.has(productId)) changed.add(productId);
      await this.scopes.setMembers(shop, id, [...members]);
    }
    const enqueued = [...changed];
    await this.enqueuer.enqueueMany(enqueued.map((productId) => ({ shop, productId, reason: 'scope' })));
    if (enqueued.length > 0)
      this.logger.log(`${shop}: scoped collections changed members: ${enqueued.length} product(s) resynced`);
    return { shop, collections: ids.length, enqueued };
  }
}
