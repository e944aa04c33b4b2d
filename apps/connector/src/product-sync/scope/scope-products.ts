import { Injectable, Logger } from '@nestjs/common';
import { PRODUCT_IDS_QUERY } from '../../clients/shopify/documents/product-ids.query.js';
import { COLLECTION_ID_BY_HANDLE_QUERY } from '../../clients/shopify/documents/product-scope.documents.js';
import { ShopifyAdmin } from '../../clients/shopify/shopify-admin.service.js';
import type { ProductScope } from '../../mapping/model/mapping-file.js';

interface IdsPage {
  products: {
    nodes: Array<{ legacyResourceId: string }>;
    pageInfo: { hasNextPage: boolean; endCursor: string | null };
  };
}

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
    for (let after: string | null = null; ; ) {
      const page: IdsPage = await admin.request<IdsPage>(
        PRODUCT_IDS_QUERY,
        { first: PAGE, after, query, sortKey: 'ID' },
        PAGE + 2,
      );
      for (const node of page.products.nodes) found.add(node.legacyResourceId);
      if (!page.products.pageInfo.hasNextPage || !page.products.pageInfo.endCursor) return found;
      after = page.products.pageInfo.endCursor;
    }
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
      const answer = await this.shopify
        .forShop(shop)
        .request<{ collectionByIdentifier: { id: string } | null }>(
          COLLECTION_ID_BY_HANDLE_QUERY,
          { handle: collection.handle },
          1,
        );
      if (answer.collectionByIdentifier) ids.push(answer.collectionByIdentifier.id);
      else this.logger.warn(`${shop}: scope.collections names "${collection.handle}": no such collection`);
    }
    return ids;
  }
}
