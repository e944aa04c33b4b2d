import { Injectable, Logger } from '@nestjs/common';
import { collectionIdByHandle } from '../../clients/shopify/product-scope-reads.js';
import { ShopifyAdmin } from '../../clients/shopify/shopify-admin.service.js';
import { allPages, listProductPage } from '../../clients/shopify/shopify-product-pages.js';
import type { ProductScope } from '../../mapping/model/mapping-file.js';

const PAGE = 250;

/**
 * Why: the Shopify reads the scope's boot comparison and collection walks share: the products a
 * search finds (ids only, 250 a page, 252 points each), and the ids of collections the mapping
 * names by handle.
 */
@Injectable()
export class ScopeProducts {
  private readonly logger = new Logger('ScopeProducts');

  constructor(private readonly shopify: ShopifyAdmin) {}

  /** The numeric ids of every product a Shopify search finds. */
  async search(shop: string, query: string): Promise<Set<string>> {
    const found = new Set<string>();
    const admin = this.shopify.forShop(shop);
    for await (const items of allPages((after) =>
      listProductPage(admin, { after, first: PAGE, query, sortKey: 'ID' }),
    ))
      for (const item of items) found.add(item.productId);
    return found;
  }

  /**
   * The scope's collections as gids (handles looked up); a handle no collection has is left out
   * (said in the log): no product is in it.
   */
  async collectionIds(shop: string, scope: ProductScope): Promise<string[]> {
    const ids: string[] = [];
    for (const collection of scope.collections) {
      if (collection.kind === 'id') {
        ids.push(collection.id);
        continue;
      }
      const id = await collectionIdByHandle(this.shopify.forShop(shop), collection.handle);
      if (id !== null) ids.push(id);
      else this.logger.warn(`${shop}: scope.collections names "${collection.handle}": no such collection`);
    }
    return ids;
  }
}
