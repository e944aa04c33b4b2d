import { Injectable, Logger, type OnModuleInit } from '@nestjs/common';
import { SyncEnqueuer } from '../../intake/sync-enqueuer.service.js';
import { scopeKey, scopeSearches } from '../../mapping/product-scope.js';
import { ShopMappings } from '../../mapping/shop-mappings.service.js';
import type { ValidatedMapping } from '../../mapping/validated-mapping.js';
import { SyncSettings } from '../../platform/config/settings.js';
import { SkuMapRepository } from '../sku-map/sku-map.repository.js';
import { ScopeProducts } from './scope-products.service.js';
import { ShopScopeRepository } from './shop-scope.repository.js';

/**
 * Why: a product's scope is judged when it syncs, but a restart with another scope changes no
 * product, so nothing would sync. After each check that finds a shop's mapping ready, the scope
 * in effect is compared with the one applied last (`shop_scope`); when they differ, the products
 * entering are found by Shopify searches and the products leaving are the sku map's, and each is
 * synced (reason `scope`): the job takes one entering, and applies the leaving policy
 * (`CONNECTOR_SYNC_LEAVING_STATUSES`) to one leaving.
 */
@Injectable()
export class ScopeScanner implements OnModuleInit {
  private readonly logger = new Logger('ScopeScanner');

  constructor(
    private readonly mappings: ShopMappings,
    private readonly scopes: ShopScopeRepository,
    private readonly products: ScopeProducts,
    private readonly map: SkuMapRepository,
    private readonly enqueuer: SyncEnqueuer,
    private readonly settings: SyncSettings,
  ) {}

  onModuleInit(): void {
    this.mappings.onReady((shop, mapping) => this.scan(shop, mapping).then(() => undefined));
  }

  /** Syncs the products a changed scope may take in or leave out; the ids enqueued. */
  async scan(shop: string, mapping: ValidatedMapping): Promise<string[]> {
    const scope = mapping.file.scope;
    const key = scopeKey(scope, this.settings.statuses);
    const applied = await this.scopes.appliedKey(shop);
    if (applied === key) return [];
    // The first boot of a shop without a scope changes nothing: statuses decide, as before.
    if (applied === null && scope === null) {
      await this.scopes.apply(shop, key);
      return [];
    }
    const collections = scope ? await this.products.collectionIds(shop, scope) : [];
    const found = new Set<string>();
    for (const query of scopeSearches(scope, this.settings.statuses, collections)) {
      for (const id of await this.products.search(shop, query)) found.add(id);
    }
    const synced = await this.map.syncedProducts(shop);
    const affected = new Set([...found, ...synced]);
    const productIds = [...affected];
    await this.enqueuer.enqueueMany(productIds.map((productId) => ({ shop, productId, reason: 'scope' })));
    await this.scopes.apply(shop, key);
    this.logger.log(
      `${shop}: the product scope changed: ${found.size} product(s) found in it, ${synced.size} synced before; ${productIds.length} resynced`,
    );
    return productIds;
  }
}
